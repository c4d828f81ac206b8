import { expect, type Page } from '@playwright/test';

/** Registers through the UI and waits for the DID; returns it. */
export async function registerThroughUi(page: Page, id: string, bio: string): Promise<string> {
  await page.goto('/register');
  await page.getByLabel('Enter ID:', { exact: true }).fill(id);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  const did = page.getByText(/did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+/);
  await expect(did).toBeVisible();
  return (await did.textContent())!;
}

/** Types the biometric on the verification page at `path` and presses "Verify User". */
export async function verifyThroughUi(page: Page, bio: string, path = '/user-verification'): Promise<void> {
  await page.goto(path);
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
}

/** Holds every POST matching `glob` until `release()` is called, to observe the pending state. */
export async function holdPosts(page: Page, glob: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(glob, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await held;
    await route.continue();
  });
  return { release };
}

/**
 * The person reads the code their phone shows after it completed the screen's session, and types it
 * on the screen (decision 035); returns the code.
 */
export async function typePhoneCodeOnScreen(phone: Page, screen: Page): Promise<string> {
  const code = (await phone.getByTestId('confirmation-code').textContent())!;
  expect(code).toMatch(/^[0-9]{6}$/);
  await screen.getByLabel('Your phone shows a code. Type it here to continue on this screen:').fill(code);
  await screen.getByRole('button', { name: 'Continue', exact: true }).click();
  return code;
}

/**
 * Starts a sign-in at the example site. The site keeps its session, so to a person it knows already
 * its home page shows "Signed in as …" without a sign-in link: a new sign-in there (another person,
 * the same one again) starts at its /login, as a site's "switch account" would.
 */
export async function startSiteSignIn(page: Page, site: string): Promise<void> {
  await page.goto(site);
  if (await page.locator('#signed-in').isVisible()) await page.goto(`${site}/login`);
  else await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
}
