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

    // The same again: the specification's sentence, and the next steps.
    await page.getByLabel('Enter ID:', { exact: true }).fill(`P-${tag} Jane Example`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(`ridge loop whorl delta ${tag} arch 12 31 57`);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByTestId('already-registered')).toBeVisible();
    await shot('already-registered');

    await page.goto('/user-verification');
    await settle(page, 'VERIFICATION');
    await shot('verification');

    await page.goto('/generate-qr');
    await expect(page.locator('img.qr')).toBeVisible();
    await expect(page.getByTestId('session-link')).toBeVisible();
    await shot('qr');

    // A phone verifies through the code: this screen then asks for the code the phone shows.
    const phone = await browser.newContext({ viewport: sizes.phone, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    const mobile = await phone.newPage();
    await mobile.goto((await page.getByTestId('session-link').textContent())!);
    await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(`ridge loop whorl delta ${tag} arch 12 31 57`);
    await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Your phone verified you' })).toBeVisible();
    await shot('code-entry');
    await phone.close();

    await page.goto('/invalid-did');
    await settle(page, 'Not verified');
    await shot('invalid-did');

    await page.goto('/user-authorised');
    await expect(page.getByText('Welcome, How can we help you?!', { exact: true })).toBeVisible();
    await shot('user-authorised-direct');
    await context.close();
  });
}
