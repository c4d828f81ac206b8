import { randomUUID } from 'node:crypto';
import { expect, test, type Request } from '@playwright/test';
import { registerThroughUi, verifyThroughUi } from './journeys.ts';

test('proving: "server" sends exactly the specification\'s raw bodies, and they interoperate with browser proving', async ({ page }) => {
  const tag = randomUUID();
  const id = `ID-${tag}`;
  const bio = `weak device biometric ${tag}`;
  const posts: Request[] = [];
  page.on('request', (request) => request.method() === 'POST' && posts.push(request));

  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('zeroid.proving', 'server'));
  await registerThroughUi(page, id, bio);
  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/user-authorised$/);

  expect(posts.map((r) => [new URL(r.url()).pathname, r.postDataJSON() as unknown])).toEqual([
    ['/register', { id_info: id, bio_info: bio }],
    ['/verify', { bio_info: bio }],
  ]);

  // Registered through the raw API, the same person proves membership in the browser.
  await page.evaluate(() => localStorage.setItem('zeroid.proving', 'browser'));
  posts.length = 0;
  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/user-authorised$/);
  const verify = posts.find((r) => new URL(r.url()).pathname === '/verify');
  expect(Object.keys(verify!.postDataJSON() as object)).toEqual(['proof']);
});
