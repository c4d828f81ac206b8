import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { bundleForPage } from './bundle-for-page.ts';

type BareProver = { setup(depth: number, members: number): Promise<void>; prove(run: number): Promise<number> };
const BARE_PROVER_URL = '/__bench/bare-prover.js';

/**
 * The baseline of every browser journey: bare `generateProof` in `page`, with the same libraries the
 * web app's worker uses (bare-prover.ts, bundled for the page), at the depth of the group `serverUrl`
 * serves, artifacts in memory, warmed up once as each journey's first run is. Returns one timed
 * proof per call, in milliseconds, timed in the page.
 */
export async function loadBareProver(
  page: Page,
  serverUrl: string,
  members: number,
): Promise<{ depth: number; prove: (run: number) => Promise<number> }> {
  const { depth } = (await (await fetch(`${serverUrl}/members`)).json()) as { depth: number };
  const bundle = await bundleForPage(
    path.join(import.meta.dirname, 'bare-prover.ts'),
    mkdtempSync(path.join(tmpdir(), 'zeroid-bench-bare-')),
  );
  await page.route(`**${BARE_PROVER_URL}`, (route) => route.fulfill({ contentType: 'text/javascript', body: bundle }));
  await page.evaluate(
    async ([url, d, m]) => {
      const bare = (await import(url)) as BareProver;
      await bare.setup(d, m);
      await bare.prove(-1);
    },
    [BARE_PROVER_URL, depth, members] as const,
  );
  return {
    depth,
    prove: (run) => page.evaluate(async ([url, r]) => ((await import(url)) as BareProver).prove(r), [BARE_PROVER_URL, run] as const),
  };
}
