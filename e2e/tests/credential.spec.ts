import { expectNoRequestCarries } from './requests-carry-none.ts';
import { expect, test, type Request } from '@playwright/test';
import { issueCredential, issuerPublicKey } from '@zeroid/protocol/credential';
import { E2E_ISSUER_KEY, E2E_ISSUER_PUBLIC_KEY } from './issuers.ts';

/**
 * A credential pasted where the ID is typed (decision 085): the page says what it is before anything is
 * proven, refuses an expired one and one from an issuer this server does not trust, and registers a
 * valid one with the credential circuit's proof made in the worker, with progress shown; no request
 * carries the credential, its ID or their hashes.
 */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const longDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

test('a pasted credential is named, checked before any proof, and registered in zero knowledge', async ({ page }) => {
  const tag = `${Date.now()}`;
  const expires = day(30);
  const id = `Student ${tag}`;
  const line = issueCredential(E2E_ISSUER_KEY, id, { expires });
  const recorded: Request[] = [];
  page.on('request', (request) => recorded.push(request));

  await page.goto('/register');
  const idField = page.getByLabel('Enter ID:', { exact: true });

  // An expired credential and one from an issuer this server does not trust: said at once, nothing proven.
  await idField.fill(issueCredential(E2E_ISSUER_KEY, `Expired ${tag}`, { expires: day(-1) }));
  await expect(page.getByText('The credential has expired: ask its issuer for a new one.')).toBeVisible();
  await idField.fill(issueCredential(new Uint8Array(32).fill(9), id, { expires }));
  await expect(page.getByText("The credential's issuer is not one this server trusts", { exact: false })).toBeVisible();
  await idField.fill(`${line.slice(0, -4)}`);
  await expect(page.getByText('The credential is malformed', { exact: false })).toBeVisible();
  await page.getByLabel('Biometric Data:', { exact: true }).fill(`credential bio ${tag}`);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText('The credential is malformed', { exact: false }).first()).toBeVisible();
  // Nothing was sent for it: no OPRF round, no challenge, no registration (the page itself is GET /register).
  expect(recorded.filter((r) => r.method() === 'POST')).toHaveLength(0);

  // The valid one: named with its issuer and last day, then registered with progress shown.
  await idField.fill(line);
  await expect(page.getByText(`Credential from Example University, valid until ${longDate(expires)}`)).toBeVisible();
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText('Computing the zero-knowledge proof on this device…')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+/)).toBeVisible({ timeout: 90_000 });

  const registration = recorded.find((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/register')!;
  const body = registration.postDataJSON() as { credential?: { today: number; issuersRoot: string; leaf: string } };
  expect(Object.keys(body.credential ?? {}).sort()).toEqual(['issuersRoot', 'leaf', 'today']);
  // The credential leaf (decision 086): the proof's own output, a field element, which the server verified.
  expect(body.credential?.leaf).toMatch(/^[1-9][0-9]{0,76}$/);
  await expectNoRequestCarries(recorded, [line, id]);
});

test('the issuer’s public key in the e2e configuration is the test key’s', () => {
  expect(issuerPublicKey(E2E_ISSUER_KEY)).toBe(E2E_ISSUER_PUBLIC_KEY);
});
