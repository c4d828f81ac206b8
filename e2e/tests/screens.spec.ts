import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { holdPosts } from './journeys.ts';
import { decodeQrDataUrl } from './qr.ts';

// Unique per run, so the suite can run again against the same database.
const person = () => {
  const tag = randomUUID();
  return { id: `ID-${tag}`, bio: `ridge loop whorl ${tag} delta arch` };
};

test('welcome page: heading, tagline and both buttons', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome To ZeroID' })).toBeVisible();
  await expect(page.getByText('Where Trust Meets ZERO Knowledge', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Registration', exact: true }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.goto('/');
  await page.getByRole('button', { name: 'Verification', exact: true }).click();
  await expect(page).toHaveURL(/\/user-verification$/);
});

test('register → already registered → verify succeeds → unknown biometric is invalid', async ({ page }) => {
  const alice = person();
  await page.goto('/register');
  await page.getByLabel('Enter ID:', { exact: true }).fill(alice.id);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(alice.bio);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText(/did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+/)).toBeVisible();
  await expect(page.getByRole('link', { name: /QR/ })).toBeVisible();

  await page.goto('/register');
  await page.getByLabel('Enter ID:', { exact: true }).fill(alice.id);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(alice.bio);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText('The User is already registered.', { exact: true })).toBeVisible();

  await page.goto('/user-verification');
  await expect(page.getByRole('heading', { name: 'VERIFICATION', exact: true })).toBeVisible();
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(alice.bio);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page).toHaveURL(/\/user-authorised$/);
  await expect(page.getByText('Welcome, How can we help you?!', { exact: true })).toBeVisible();

  await page.goto('/user-verification');
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(person().bio);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page).toHaveURL(/\/invalid-did$/);
  await expect(
    page.getByText('The ID entered is invalid or not yet registered. Please Register, or try again in a while', { exact: true }),
  ).toBeVisible();
});

test('the QR page shows a code that decodes to the verification link', async ({ page, baseURL }) => {
  await page.goto('/generate-qr');
  await expect(page.getByRole('heading', { name: 'QR Code Generator', exact: true })).toBeVisible();
  const img = page.locator('img[src^="data:image/png"]');
  await expect(img).toBeVisible();
  expect(await img.getAttribute('alt')).toMatch(/\w+/);
  // Plain GET /generateQRCode keeps its meaning: the verification link itself.
  const plain = await page.request.get('/generateQRCode');
  expect(plain.headers()['content-type']).toBe('image/png');
  expect(decodeQrDataUrl(`data:image/png;base64,${(await plain.body()).toString('base64')}`)).toBe(`${baseURL}/user-verification`);
  // The page itself shows a one-time cross-device session.
  expect(decodeQrDataUrl((await img.getAttribute('src'))!)).toMatch(new RegExp(`^${baseURL}/user-verification\\?session=[0-9a-f]{32}$`));
});

test('an unknown path shows a not-found page with a link home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome To ZeroID' })).toBeVisible();
});

test('the Verify User button is disabled while the call is pending', async ({ page }) => {
  const { release } = await holdPosts(page, '**/verify');
  await page.goto('/user-verification');
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(person().bio);
  const button = page.getByRole('button', { name: 'Verify User', exact: true });
  await button.click();
  await expect(button).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/invalid-did$/);
});

test('an over-long field is refused on the page, under that field, keeping the input and the button', async ({ page }) => {
  await page.goto('/register');
  const tooLong = 'x'.repeat(17_000);
  await page.getByLabel('Enter ID:', { exact: true }).fill('ID-kept');
  await page.getByLabel('Biometric Data:', { exact: true }).fill(tooLong);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('The biometric data is too long (at most 16 KiB).');
  await expect(page.getByLabel('Enter ID:', { exact: true })).toHaveValue('ID-kept');
  await expect(page.getByLabel('Biometric Data:', { exact: true })).toHaveValue(tooLong);
  await expect(page.getByRole('button', { name: 'Register', exact: true })).toBeEnabled();
});

for (const [name, fail] of [
  ['a 503 from the server', { status: 503 }],
  ['a network failure', 'abort'],
] as const) {
  test(`${name} while verifying shows an alert and keeps the input`, async ({ page }) => {
    await page.route('**/{oprf,verify}', (route) =>
      fail === 'abort'
        ? route.abort('connectionrefused')
        : route.fulfill({
            status: fail.status,
            contentType: 'application/json',
            body: '{"error":{"code":"SERVICE_UNAVAILABLE","message":"The service is temporarily unavailable."}}',
          }),
    );
    await page.goto('/user-verification');
    const bio = person().bio;
    await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByPlaceholder('Touch to verify!', { exact: true })).toHaveValue(bio);
    await expect(page.getByRole('button', { name: 'Verify User', exact: true })).toBeEnabled();
    await expect(page).toHaveURL(/\/user-verification$/);
  });
}
