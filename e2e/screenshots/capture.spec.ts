import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const out = path.resolve(import.meta.dirname, '../../docs/screenshots');
const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

for (const [size, viewport] of Object.entries(sizes)) {
  test(`screenshots at ${size} size`, async ({ browser }) => {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const shot = (name: string) => page.screenshot({ path: path.join(out, `${size}-${name}.png`), fullPage: true });
    const settle = async (p: Page, heading: string) => expect(p.getByRole('heading', { level: 1, name: heading })).toBeVisible();

    await page.goto('/');
    await settle(page, 'Welcome To ZeroID');
    await shot('welcome');

    const tag = randomUUID().slice(0, 8);
    await page.goto('/register');
    await page.getByLabel('Enter ID:', { exact: true }).fill(`P-${tag} Jane Example`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(`ridge loop whorl delta ${tag} arch 12 31 57`);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByText(/did:key:z6Mk/)).toBeVisible();
    await shot('registered');

    await page.goto('/user-verification');
    await settle(page, 'VERIFICATION');
    await shot('verification');

    await page.goto('/generate-qr');
    await expect(page.locator('img.qr')).toBeVisible();
    await shot('qr');

    await page.goto('/invalid-did');
    await settle(page, 'Not verified');
    await shot('invalid-did');
    await context.close();
  });
}
