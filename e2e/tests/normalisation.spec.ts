import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { registerThroughUi } from './journeys.ts';

/**
 * Normalisation version 2 runs in the browser build (Chromium's own Unicode tables) exactly as in
 * the server (Node's): invisible characters typed on the register page give the identity that the
 * server's raw path derives from the plain text.
 */
test('invisible characters typed in the browser give the identity the server derives from plain text', async ({ page }) => {
  const tag = randomUUID();
  // The page holds the invisible characters: the browser's normalisation removes them, not the form.
  await page.goto('/register');
  await page.getByLabel('Biometric Data:', { exact: true }).fill(`\ufeffloop\u200d ${tag} \u2060arch\u034f 3`);
  expect(await page.getByLabel('Biometric Data:', { exact: true }).inputValue()).toContain('\u2060');
  const did = await registerThroughUi(page, `NV-\u200b${tag}\u00ad`, `\ufeffloop\u200d ${tag} \u2060arch\u034f 3`);
  expect(did).toMatch(/^did:key:z6Mk/);

  const verify = await page.request.post('/verify', { data: { bio_info: `loop ${tag} arch 3` } });
  expect(await verify.json()).toEqual({ 'Verification Result': 'Success' });
  const again = await page.request.post('/register', { data: { id_info: `NV-${tag}`, bio_info: `other ${tag}` } });
  expect(await again.json()).toEqual({ 'DID already generated': true });
});
