import { randomUUID } from 'node:crypto';
import { expect, test, type Locator } from '@playwright/test';
import { expectNoViolations } from './axe.ts';
import { holdPosts, registerThroughUi } from './journeys.ts';

// axe-core on every screen and state: zero violations of WCAG 2.x A and AA.

test('every screen, empty, is free of accessibility violations', async ({ page }) => {
  for (const [path, ready] of [
    ['/', 'Welcome To ZeroID'],
    ['/register', 'Registration'],
    ['/user-verification', 'VERIFICATION'],
    ['/generate-qr', 'QR Code Generator'],
    ['/invalid-did', 'Not verified'],
    // Opened directly: the specification's welcome, with a note that nothing was verified in this tab.
    ['/user-authorised', 'Welcome'],
    ['/no-such-page', 'Page not found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: ready })).toBeVisible();
    if (path === '/generate-qr') await expect(page.locator('img.qr')).toBeVisible();
    await expectNoViolations(page, path);
  }
});

test('registration states (pending, success, already registered, error) are free of violations', async ({ page }) => {
  const tag = randomUUID();
  const { release } = await holdPosts(page, '**/register');
  await page.goto('/register');
  await page.getByLabel('Enter ID:', { exact: true }).fill(`A11Y-${tag}`);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(`a11y biometric ${tag}`);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Register', exact: true })).toBeDisabled();
  await expectNoViolations(page, 'register pending');
  release();
  await expect(page.getByText(/did:key:z6Mk/)).toBeVisible();
  await expectNoViolations(page, 'register success');
  await page.unroute('**/register');

  // Registered, the form is cleared: type the same again.
  await page.getByLabel('Enter ID:', { exact: true }).fill(`A11Y-${tag}`);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(`a11y biometric ${tag}`);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText('The User is already registered.', { exact: true })).toBeVisible();
  await expectNoViolations(page, 'already registered');

  await page.getByLabel('Biometric Data:', { exact: true }).fill(' ');
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoViolations(page, 'register error');
});

test('verification states (pending, error, cross-device note) are free of violations', async ({ page }) => {
  const tag = randomUUID();
  const bio = `a11y verify ${tag}`;
  await registerThroughUi(page, `A11YV-${tag}`, bio);
  const { release } = await holdPosts(page, '**/verify');
  await page.goto('/user-verification');
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Verify User', exact: true })).toBeDisabled();
  await expectNoViolations(page, 'verify pending');
  release();
  await expect(page).toHaveURL(/\/user-authorised$/);
  await page.unroute('**/verify');

  await page.goto('/user-verification');
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoViolations(page, 'verify error');

  await page.goto(`/user-verification?session=${'0'.repeat(32)}`);
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoViolations(page, 'verify with an invalid session');
});

test('the whole journey works with the keyboard alone', async ({ page }) => {
  const tag = randomUUID();
  /** Presses Tab until `target` has focus: proves it is reachable by keyboard. */
  const tabTo = async (target: Locator) => {
    for (let i = 0; i < 25; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error('not reachable with Tab');
  };
  await page.goto('/');
  await tabTo(page.getByRole('button', { name: 'Registration', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/register$/);
  await tabTo(page.getByLabel('Enter ID:', { exact: true }));
  await page.keyboard.type(`KEY-${tag}`);
  await tabTo(page.getByLabel('Biometric Data:', { exact: true }));
  await page.keyboard.type(`keyboard biometric ${tag}`);
  await tabTo(page.getByRole('button', { name: 'Register', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(/did:key:z6Mk/)).toBeVisible();

  await tabTo(page.getByRole('link', { name: 'ZeroID home' }));
  await page.keyboard.press('Enter');
  await tabTo(page.getByRole('button', { name: 'Verification', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/user-verification$/);
  await tabTo(page.getByPlaceholder('Touch to verify!', { exact: true }));
  await page.keyboard.type(`keyboard biometric ${tag}`);
  await tabTo(page.getByRole('button', { name: 'Verify User', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/user-authorised$/);
});
