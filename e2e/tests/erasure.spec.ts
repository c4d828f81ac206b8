import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { holdPosts, registerThroughUi, verifyThroughUi } from './journeys.ts';

async function expectNoViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(results.violations.map((v) => `${state}: ${v.id} ${v.help}`)).toEqual([]);
}

/**
 * A Sign in with ZeroID site, so that the erasure proves the person's pseudonym at its sector in the
 * page (decision 048).
 */
test.beforeAll(async () => {
  await promisify(execFile)(
    process.execPath,
    [
      'apps/server/scripts/oidc.js',
      'add-client',
      '--id',
      `e2e-erasure-${randomUUID().slice(0, 8)}`,
      '--redirect-uri',
      'http://localhost:3999/cb',
      '--public',
    ],
    { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' } },
  );
});

/**
 * Decision 022 in Chromium: register, then reach "Delete my identity" from the welcome screen's
 * footer; a wrong biometric deletes nothing and keeps the inputs; the confirmation step, the
 * pending state and the result; verification then fails, the DID resolves as deactivated, and the
 * same values register again. No request carries the raw ID or biometric.
 */
test('register → erase (with a failed try and a confirmation) → verify fails → register again works', async ({ page }) => {
  const tag = randomUUID();
  const id = `ERASE-${tag}`;
  const bio = `erasure minutiae ${tag} 12 34 56`;
  const sent: Request[] = [];
  page.on('request', (request) => sent.push(request));

  const did = await registerThroughUi(page, id, bio);

  await page.goto('/');
  await expectNoViolations(page, 'welcome with the erasure link');
  await page.getByRole('link', { name: 'Delete my identity' }).click();
  await expect(page).toHaveURL(/\/erase$/);
  await expect(page.getByRole('heading', { name: 'Delete my identity' })).toBeVisible();
  await expectNoViolations(page, 'erase, empty');
  const idField = page.getByLabel('Enter ID:', { exact: true });
  const bioField = page.getByLabel('Biometric Data:', { exact: true });

  // The wrong biometric: nothing is deleted, the inputs stay.
  await idField.fill(id);
  await bioField.fill(`${bio} but not quite`);
  await page.getByRole('button', { name: 'Delete my identity' }).click();
  await expect(page.getByText('This cannot be undone. Delete this identity?')).toBeVisible();
  await expectNoViolations(page, 'erase, confirming');
  await page.getByRole('button', { name: 'Yes, delete it for good' }).click();
  await expect(page.getByRole('alert')).toContainText('Nothing was deleted');
  await expectNoViolations(page, 'erase, failed');
  await expect(idField).toHaveValue(id);
  await expect(bioField).toHaveValue(`${bio} but not quite`);
  expect((await page.request.get(`/did/${did}`)).status()).toBe(200);

  // The right one: cancel once, then confirm; the button is disabled while the erasure is pending.
  await bioField.fill(bio);
  await page.getByRole('button', { name: 'Delete my identity' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('This cannot be undone. Delete this identity?')).toBeHidden();
  await page.getByRole('button', { name: 'Delete my identity' }).click();
  const held = await holdPosts(page, '**/erase');
  await page.getByRole('button', { name: 'Yes, delete it for good' }).click();
  await expect(page.getByRole('button', { name: 'Yes, delete it for good' })).toBeDisabled();
  await expect(page.getByText(/Contacting the server|Deriving your keys/)).toBeVisible();
  held.release();
  await expect(page.getByText('Your identity has been deleted.')).toBeVisible();
  await expectNoViolations(page, 'erase, done');
  await page.unroute('**/erase');

  const resolution = await page.request.get(`/did/${did}`);
  expect(resolution.status()).toBe(410);
  expect(await resolution.json()).toMatchObject({ didDocumentMetadata: { deactivated: true } });

  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/invalid-did$/);

  expect(await registerThroughUi(page, id, bio)).toBe(did);
  expect((await page.request.get(`/did/${did}`)).status()).toBe(200);
  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/user-authorised$/);

  const erasures = sent.filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/erase');
  expect(erasures).toHaveLength(2);
  // Each erasure proved a pseudonym per sector in its own commitment's group, and sent no secret (decision 048).
  for (const erasure of erasures) {
    const body = JSON.parse(erasure.postData()!) as {
      commitment: string;
      signInProofs: Array<{ merkleTreeRoot: string; merkleTreeDepth: number }>;
    };
    expect(body).not.toHaveProperty('secretScalar');
    expect(body.signInProofs.length).toBeGreaterThan(0);
    for (const proof of body.signInProofs) expect(proof).toMatchObject({ merkleTreeRoot: body.commitment, merkleTreeDepth: 1 });
  }
  for (const request of sent) {
    const text = [request.url(), request.postData() ?? ''].join('\n');
    expect(text.includes(id) || text.includes(bio), `${request.url()} carried a raw value`).toBe(false);
  }
});
