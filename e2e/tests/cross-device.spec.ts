import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { registerThroughUi, verifyThroughUi } from './journeys.ts';
import { decodeQrDataUrl } from './qr.ts';

/** A desktop shows the QR code; a phone (another browser context) scans it and verifies. */
async function showQr(page: Page): Promise<string> {
  await page.goto('/generate-qr');
  const img = page.locator('img.qr');
  await expect(img).toBeVisible();
  await expect(page.getByRole('timer')).toContainText(/Expires in \d:\d\d/);
  const link = decodeQrDataUrl((await img.getAttribute('src'))!);
  expect(link).toMatch(/\/user-verification\?session=[0-9a-f]{32}$/);
  return link!;
}

async function phoneWithIdentity(browser: Browser) {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await phone.newPage();
  const bio = `phone biometric ${randomUUID()}`;
  await registerThroughUi(page, `PHONE-${randomUUID()}`, bio);
  return { phone, page, bio };
}

test('a phone completes the session and the desktop moves on by itself; the link cannot be used again', async ({ page, browser }) => {
  const link = await showQr(page);
  const { phone, page: mobile, bio } = await phoneWithIdentity(browser);

  await verifyThroughUi(mobile, bio, link);
  await expect(mobile).toHaveURL(/\/user-authorised$/);
  await expect(page).toHaveURL(/\/user-authorised$/);
  await expect(page.getByText('Welcome, How can we help you?!', { exact: true })).toBeVisible();

  await mobile.goto(link);
  await expect(mobile.getByRole('alert')).toContainText('expired or was already used');
  await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
  await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(mobile).toHaveURL(/\/invalid-did$/);
  await phone.close();
});

test('an unregistered biometric goes to the invalid page on the phone, sending nothing, and the desktop keeps waiting', async ({
  page,
  browser,
}) => {
  const link = await showQr(page);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const mobile = await phone.newPage();
  await mobile.goto(link);
  await expect(mobile.getByText('You are completing a verification started on another screen.')).toBeVisible();
  // Unknown to the registry: the phone finds no commitment in its bucket and stops before proving.
  await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(`stranger ${randomUUID()}`);
  await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(mobile).toHaveURL(/\/invalid-did$/);
  await expect(page).toHaveURL(/\/generate-qr$/);
  await expect(page.locator('img.qr')).toBeVisible();
  await phone.close();
});

test('a session expires with a visible countdown, and its link then refuses to verify', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const link = await showQr(page);
  await expect(page.getByText('This QR code has expired.')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('img.qr')).toHaveCount(0);

  const { phone, page: mobile, bio } = await phoneWithIdentity(browser);
  await mobile.goto(link);
  await expect(mobile.getByRole('alert')).toContainText('expired or was already used');
  await verifyThroughUi(mobile, bio, link);
  await expect(mobile).toHaveURL(/\/invalid-did$/);

  await page.getByRole('button', { name: 'New code' }).click();
  await expect(page.locator('img.qr')).toBeVisible();
  await phone.close();
});

test('a session id that does not exist is refused at once', async ({ browser }) => {
  const phone = await browser.newContext();
  const mobile = await phone.newPage();
  await mobile.goto(`/user-verification?session=${'0'.repeat(32)}`);
  await expect(mobile.getByRole('alert')).toContainText('not valid');
  await phone.close();
});
