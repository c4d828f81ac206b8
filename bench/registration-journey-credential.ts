import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { issueCredential, issuerPublicKey } from '@zeroid/protocol/credential';
import { startServerProcess } from '../apps/server/test/server-process.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium.ts';
import { median } from './stats.ts';

/**
 * The journey goal of decision 085: the browser registration journey with a pasted credential (its
 * check, the OPRF rounds, the credential circuit's proof) at most 1.3× the plain v3 registration
 * journey, in the same run. One server process (single key, SQLite) trusting one issuer, serving this
 * checkout's web app; one Chromium page; an untimed registration of each kind first (both circuits
 * downloaded and cached), then the kinds take turns, the order flipping each run. A journey is timed
 * from the click on "Register" to the DID on the screen. Not a suite: a goal check printed to the console.
 *
 *   npx tsx bench/registration-journey-credential.ts [runs = 5]
 */
const runs = Number(process.argv[2] ?? 5);
const root = path.resolve(import.meta.dirname, '..');
execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], { cwd: root, stdio: 'ignore' });
const issuer = new Uint8Array(32).fill(1);
const tag = Date.now().toString(36);
const credentials = Array.from({ length: runs + 1 }, (_, i) =>
  issueCredential(issuer, `bench journey ${tag} ${i}`, { expires: '2099-12-31' }),
);

const dir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-credential-journey-'));
const server = await startServerProcess({
  DATA_DIR: dir,
  WEB_DIST: path.join(root, 'apps/web/dist'),
  RATE_LIMIT_PER_MINUTE: '0',
  TRUSTED_ISSUERS: `Example University=${issuerPublicKey(issuer)}`,
});
assertChromium();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const ms = { plain: [] as number[], credential: [] as number[] };
try {
  const page = await browser.newPage({ baseURL: server.url });
  const register = async (id: string, bio: string, expect?: string) => {
    await page.goto('/register');
    await page.getByLabel('Enter ID:', { exact: true }).fill(id);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
    // The credential is named before the click: its check is part of pasting, not of the journey.
    if (expect) await page.getByText(expect).waitFor({ timeout: 30_000 });
    const started = performance.now();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 180_000 });
    return performance.now() - started;
  };
  const plain = (n: number) => register(`bench plain ${tag} ${n}`, `bench journey plain ${tag} ${n}`);
  const credential = (n: number) =>
    register(
      credentials[n + 1]!,
      `bench journey credential ${tag} ${n}`,
      'Credential from Example University, valid until 31 December 2099',
    );
  await plain(-1);
  await credential(-1);
  for (let run = 0; run < runs; run++) {
    for (const kind of run % 2 ? (['credential', 'plain'] as const) : (['plain', 'credential'] as const)) {
      ms[kind].push(await (kind === 'plain' ? plain(run) : credential(run)));
      console.error(`run ${run + 1}/${runs}: ${kind} ${ms[kind].at(-1)!.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `registration journey, medians of ${runs}: plain ${median(ms.plain).toFixed(0)} ms, credential ${median(ms.credential).toFixed(0)} ms; ` +
    `ratio ${(median(ms.credential) / median(ms.plain)).toFixed(2)} (goal ≤ 1.3); per run ${ms.credential.map((c, i) => (c / ms.plain[i]!).toFixed(2)).join(' ')}`,
);
