import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { typePhoneCodeOnScreen, verifyThroughUi } from './journeys.ts';
import { decodeQrDataUrl } from './qr.ts';

/**
 * Every screen finished, at a phone's width (390 px, laid out as a phone lays it out: by its
 * viewport tag) and a desktop's (1280 px): what each says, that the QR code's link is shown as text,
 * and that nothing is wider than the screen.
 */
const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const;

async function open(browser: Browser, size: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch });
  return { context, page: await context.newPage() };
}

/** The page is laid out at the screen's own width, and nothing on it is wider. */
async function expectFits(page: Page, width: number) {
  const { layout, scroll } = await page.evaluate(() => ({
    layout: window.innerWidth,
    scroll: document.documentElement.scrollWidth,
  }));
  expect(layout, 'laid out at the screen width (a viewport tag)').toBe(width);
  expect(scroll, 'no horizontal scroll').toBeLessThanOrEqual(width);
}

/** A person registered through the raw API (fast: no proof in the browser). */
async function registered(page: Page) {
  const person = { id: `SCREENS-${randomUUID()}`, bio: `screens biometric ${randomUUID()}` };
  const reply = await page.request.post('/register', { data: { id_info: person.id, bio_info: person.bio } });
  expect((await reply.json()) as unknown).toMatchObject({ 'DID already generated': false });
  return person;
}

for (const size of WIDTHS) {
  test.describe(`at ${size.viewport.width} px`, () => {
    test('/user-authorised opened directly shows the specification’s welcome, and says nobody was verified here', async ({ browser }) => {
      const { context, page } = await open(browser, size);
      await page.goto('/user-authorised');
      await expect(page.getByText('Welcome, How can we help you?!', { exact: true })).toBeVisible();
      await expect(page.getByTestId('not-verified-note')).toHaveText(
        'Nobody has been verified in this tab: this page was opened directly. To prove it is you, verify with your biometric.',
      );
      await expect(page.getByRole('heading', { level: 1, name: 'Verified' })).toHaveCount(0);
      await page.getByRole('link', { name: 'Go to verification', exact: true }).click();
      await expect(page).toHaveURL(/\/user-verification$/);
      await page.goBack();
      await expectFits(page, size.viewport.width);
      await context.close();
    });

    test('the failure outcome keeps the specification’s sentence and says how the biometric must match', async ({ browser }) => {
      const { context, page } = await open(browser, size);
      const bio = `nobody registered this ${randomUUID()}`;
      await verifyThroughUi(page, bio);
      await expect(page).toHaveURL(/\/invalid-did$/);
      await expect(
        page.getByText('The ID entered is invalid or not yet registered. Please Register, or try again in a while', { exact: true }),
      ).toBeVisible();
      await expect(page.getByTestId('invalid-did-help')).toHaveText(
        'Not recognised. The biometric must be exactly the text you registered with: letters, case and punctuation count (extra spaces do not). Check it and try again, or register first if you have not yet.',
      );
      await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveAttribute('href', '/register');
      await page.getByRole('link', { name: 'Try again', exact: true }).click();
      await expect(page).toHaveURL(/\/user-verification$/);
      // The person retries with the same text: what they typed is back in the field.
      await expect(page.getByPlaceholder('Touch to verify!', { exact: true })).toHaveValue(bio);
      await page.goBack();
      await expectFits(page, size.viewport.width);
      await context.close();
    });

    test('a duplicate registration offers the next steps: verify instead, or delete my identity', async ({ browser }) => {
      const { context, page } = await open(browser, size);
      const person = await registered(page);
      await page.goto('/register');
      await page.getByLabel('Enter ID:', { exact: true }).fill(person.id);
      await page.getByLabel('Biometric Data:', { exact: true }).fill(person.bio);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const outcome = page.getByTestId('already-registered');
      await expect(outcome.getByText('The User is already registered.', { exact: true })).toBeVisible();
      await expect(outcome.getByRole('link', { name: 'Delete my identity', exact: true })).toHaveAttribute('href', '/erase');
      await expectFits(page, size.viewport.width);
      await outcome.getByRole('link', { name: 'Verify instead', exact: true }).click();
      await expect(page).toHaveURL(/\/user-verification$/);
      await context.close();
    });

    test('the QR screen shows its link as text, says a phone cannot reach a loopback address and how to fix it, and counts down from its life', async ({
      browser,
    }) => {
      const { context, page } = await open(browser, size);
      await page.goto('/generate-qr');
      const img = page.locator('img.qr');
      await expect(img).toBeVisible();
      const link = page.getByTestId('session-link');
      await expect(link).toBeVisible();
      const text = (await link.textContent())!;
      expect(text).toBe(decodeQrDataUrl((await img.getAttribute('src'))!));
      expect(text).toMatch(new RegExp(`^${baseURL}/user-verification\\?session=[0-9a-f]{32}$`));
      // This server's PUBLIC_URL is 127.0.0.1: no phone reaches it, and the screen says how to start one that does.
      const note = page.getByTestId('loopback-note');
      await expect(note).toContainText("A phone cannot reach this link: 127.0.0.1 is this computer's own address.");
      await expect(note.locator('code')).toHaveText(
        `HOST=0.0.0.0 PORT=${new URL(baseURL).port} PUBLIC_URL=http://<LAN IP>:${new URL(baseURL).port} npm start`,
      );
      // The session lives SESSION_TTL_SECONDS (20 here): the clock never shows more.
      await expect(page.getByRole('timer')).toHaveText(/^This code expires in 0:(1\d|20|0\d)$/);
      await expectFits(page, size.viewport.width);
      await context.close();
    });

    test('the code-entry step reads like the rest of the app, and fits', async ({ browser }) => {
      const { context, page } = await open(browser, size);
      const person = await registered(page);
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const mobile = await phone.newPage();
      await page.goto('/generate-qr');
      const link = (await page.getByTestId('session-link').textContent())!;
      await verifyThroughUi(mobile, person.bio, link);
      await expect(mobile).toHaveURL(/\/user-authorised$/);

      await expect(page.getByRole('heading', { level: 2, name: 'Your phone verified you' })).toBeVisible();
      const field = page.getByLabel('Your phone shows a code. Type it here to continue on this screen:');
      await expect(field).toHaveAttribute('placeholder', '000000');
      // Styled as the app's fields are (a border and a radius), large digits, not the browser's bare input.
      await expect(field).toHaveCSS('border-radius', '10px');
      expect(Number.parseFloat(await field.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(24);
      const box = (await field.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(size.viewport.width);
      await expectFits(page, size.viewport.width);
      await typePhoneCodeOnScreen(mobile, page);
      await expect(page.getByRole('heading', { level: 1, name: 'Verified' })).toBeVisible();
      await phone.close();
      await context.close();
    });

    test('the API reference is laid out for the screen, links the integration guide, and the guide fits too', async ({ browser }) => {
      const { context, page } = await open(browser, size);
      await page.goto('/docs');
      await expect(page.getByRole('heading', { name: /ZeroID API/ })).toBeVisible();
      await expectFits(page, size.viewport.width);
      await expect(page.locator('body')).not.toContainText(/decisions? \d{3}/i);
      // Swagger UI opens a description's links in a new tab: followed here in this one.
      const guide = page.getByRole('link', { name: 'the guide for a site’s developer' });
      await expect(guide).toHaveAttribute('href', '/docs/sign-in-with-zeroid');
      await page.goto('/docs/sign-in-with-zeroid');
      await expect(page.getByRole('heading', { level: 1, name: /Sign in with ZeroID/ })).toBeVisible();
      await expectFits(page, size.viewport.width);
      await context.close();
    });

    test('the API reference’s section headers wrap: a name, then its description at full width, never a column of letters', async ({
      browser,
    }) => {
      const { context, page } = await open(browser, size);
      await page.goto('/docs');
      const headers = page.locator('.opblock-tag');
      await expect(headers.filter({ hasText: 'Sign in with ZeroID (OpenID Connect)' })).toBeVisible();
      const heights = await headers.evaluateAll((all) => all.map((header) => header.getBoundingClientRect().height));
      expect(heights.length).toBeGreaterThan(1);
      for (const height of heights) expect(height, 'a section header a few lines tall').toBeLessThan(300);
      const wider = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().width > window.innerWidth)
          .map((element) => `${element.tagName}.${element.className}`),
      );
      expect(wider, 'no element wider than the screen').toEqual([]);
      await expectFits(page, size.viewport.width);
      await context.close();
    });

    test('an expired sign-in says so and leads back to the start', async ({ browser }) => {
      const { context, page } = await open(browser, size);
      // The server cannot tell an expired sign-in from an unknown one: both are gone (SIGN_IN_NOT_FOUND).
      await page.goto(`/signin/${randomUUID()}`);
      await expect(page.getByRole('alert')).toHaveText(
        'This sign-in has expired or was already completed. Go back to the site and sign in again.',
      );
      await expectFits(page, size.viewport.width);
      await page.getByRole('link', { name: 'Back to the start', exact: true }).click();
      await expect(page).toHaveURL(`${baseURL}/`);
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome To ZeroID' })).toBeVisible();
      await context.close();
    });

    test('an expired QR link on the phone does not offer its dead session: it leads to verifying on this device, which works', async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const { context, page } = await open(browser, size);
      const person = await registered(page);
      const { session } = (await (await page.request.post('/sessions')).json()) as { session: string };
      // Sessions live SESSION_TTL_SECONDS (20 here): the server itself says when this one has expired.
      await expect
        .poll(async () => ((await (await page.request.get(`/sessions/${session}/open`)).json()) as { open: boolean }).open, {
          timeout: 45_000,
          intervals: [2_000],
        })
        .toBe(false);
      await page.goto(`/user-verification?session=${session}`);
      await expect(page.getByRole('alert')).toHaveText('This verification link has expired or was already used. Ask for a new QR code.');
      // The lead says the link is dead and what to do, not that a verification is being completed.
      await expect(page.getByText('You are completing a verification started on another screen.')).toHaveCount(0);
      await expect(page.getByTestId('session-lead')).toHaveText(
        'The link you opened can no longer complete the verification on the other screen: it has expired or was already used. Scan a new QR code there, or verify on this device.',
      );
      await expect(page.getByRole('heading', { level: 1, name: 'VERIFICATION', exact: true })).toBeVisible();
      await expect(page.getByPlaceholder('Touch to verify!', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Verify User', exact: true })).toBeDisabled();
      await expectFits(page, size.viewport.width);
      await page.getByRole('link', { name: 'Verify on this device instead', exact: true }).click();
      await expect(page).toHaveURL(/\/user-verification$/);
      await expect(page.getByRole('alert')).toHaveCount(0);
      await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(person.bio);
      await page.getByRole('button', { name: 'Verify User', exact: true }).click();
      await expect(page).toHaveURL(/\/user-authorised$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Verified' })).toBeVisible();
      await context.close();
    });
  });
}
