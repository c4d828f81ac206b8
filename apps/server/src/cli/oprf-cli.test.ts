import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { blindThresholdOprfInput, OprfEvaluator, recoverOprfKey, type OprfDomain } from '@zeroid/protocol';
import { babyJubjubSuite, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { loadOprfKey } from '../oprf/oprf-key.ts';
import { readShareFile } from '../oprf/oprf-share-store.ts';
import { decodeShareFile, encodeShareFile, type OprfShareFile } from '../oprf/oprf-share-file.ts';
import { runOprfCli } from './oprf-cli.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

const root = tempDir('zeroid-oprf-cli-');
afterAll(removeTempDirs);

/** Runs the tool in-process; returns its exit code and everything it printed. */
async function oprf(args: string[], env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = [];
  const code = await runOprfCli(args, { env, cwd: root, print: (line) => lines.push(line), printError: (line) => lines.push(line) });
  return { code, output: lines.join('\n') };
}

const readShares = async (dir: string) =>
  Promise.all(readdirSync(dir).map((node) => readShareFile(path.join(dir, node, 'oprf-share.json'))));

/** The output t nodes holding `files` give for one input, through a real threshold round. */
async function thresholdOutput(files: OprfShareFile[], threshold: number, domain: OprfDomain, text: string) {
  const round = await blindThresholdOprfInput(
    { groupPublicKey: files[0]!.groupPublicKey, threshold, publicShares: files[0]!.publicShares },
    domain,
    text,
  );
  const answers = await Promise.all(
    files.map(async ({ index, share }) => ({ index, evaluation: await new OprfEvaluator(share).blindEvaluate(round.request) })),
  );
  return bytesToHex((await round.finalize(answers)).output);
}

/** Every `size`-element subset of `items`, in order. */
function* subsets<T>(items: T[], size: number, start = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i < items.length; i++) for (const rest of subsets(items, size - 1, i + 1)) yield [items[i]!, ...rest];
}

describe('npm run oprf -- split | refresh', () => {
  it('splits the server key file and refreshes it: outputs unchanged, new shares, old and new do not mix', async () => {
    const dataDir = path.join(root, 'server-data');
    const key = await loadOprfKey(dataDir, undefined);
    const single = new OprfEvaluator(key);
    const expected = bytesToHex(await single.evaluate('bio', 'a biometric'));

    const split = await oprf(['split', '--threshold', '2', '--shares', '3', '--out', 'shares'], { DATA_DIR: dataDir });
    expect(split.code).toBe(0);
    expect(split.output).toContain(`Group public key: ${Buffer.from(single.publicKey).toString('base64url')}`);
    expect(split.output).toMatch(/node 3: DATA_DIR=.*shares\/node-3/);
    expect(split.output).toContain('Deleting the whole key');
    const shareFile = path.join(root, 'shares', 'node-1', 'oprf-share.json');
    expect(statSync(shareFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(shareFile)).mode & 0o777).toBe(0o700);
    const old = await readShares(path.join(root, 'shares'));
    expect(old.map((file) => [file.index, file.threshold, file.count])).toEqual([
      [1, 2, 3],
      [2, 2, 3],
      [3, 2, 3],
    ]);
    for (const subset of subsets(old, 2)) expect(await thresholdOutput(subset, 2, 'bio', 'a biometric')).toBe(expected);

    const refresh = await oprf(['refresh', '--threshold', '3', '--shares', '4', '--in', 'shares', '--out', 'refreshed']);
    expect(refresh.code).toBe(0);
    const fresh = await readShares(path.join(root, 'refreshed'));
    expect(fresh).toHaveLength(4);
    expect(bytesToHex(fresh[0]!.groupPublicKey)).toBe(bytesToHex(single.publicKey));
    for (const subset of subsets(fresh, 3)) expect(await thresholdOutput(subset, 3, 'bio', 'a biometric')).toBe(expected);
    expect(await thresholdOutput(fresh.slice(1), 3, 'id', 'an ID')).toBe(bytesToHex(await single.evaluate('id', 'an ID')));
    for (const file of old) expect(bytesToHex(file.share)).not.toBe(bytesToHex(fresh[file.index - 1]!.share));
    const mixed = [old[0]!, fresh[1]!, fresh[2]!].map(({ index, share }) => ({ index, share }));
    expect(bytesToHex(recoverOprfKey(mixed))).not.toBe(bytesToHex(key));
    expect(bytesToHex(recoverOprfKey(fresh.slice(0, 3)))).toBe(bytesToHex(key));

    // A folder mixing the two sharings is refused, not combined into a wrong key.
    const mix = path.join(root, 'mix');
    mkdirSync(path.join(mix, 'a'), { recursive: true });
    mkdirSync(path.join(mix, 'b'));
    copyFileSync(path.join(root, 'shares/node-1/oprf-share.json'), path.join(mix, 'a', 'oprf-share.json'));
    copyFileSync(path.join(root, 'refreshed/node-2/oprf-share.json'), path.join(mix, 'b', 'oprf-share.json'));
    const refused = await oprf(['refresh', '--threshold', '2', '--shares', '3', '--in', 'mix', '--out', 'never']);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/different keys or sharings/);
  });

  it('splits the v3 key (v3KeyFromV2 of the key) beside it, refreshes both, and gives v3 shares to files from before v3', async () => {
    const dataDir = path.join(root, 'v3-data');
    const key = await loadOprfKey(dataDir, undefined);
    const v3Key = v3KeyFromV2(key);
    const v3Group = bytesToHex(babyJubjubSuite.publicKey(v3Key));
    const hex = (files: OprfShareFile[]) => files.map((file) => ({ index: file.index, share: file.v3!.share }));
    const split = await oprf(['split', '--threshold', '2', '--shares', '3', '--out', 'v3-shares'], { DATA_DIR: dataDir });
    expect(split.code).toBe(0);
    expect(split.output).toContain(`Protocol v3 group public key: ${Buffer.from(babyJubjubSuite.publicKey(v3Key)).toString('base64url')}`);
    const first = await readShares(path.join(root, 'v3-shares'));
    for (const file of first) expect(bytesToHex(file.v3!.groupPublicKey)).toBe(v3Group);
    for (const subset of subsets(first, 2)) expect(bytesToHex(babyJubjubSuite.recoverKey(hex(subset)))).toBe(bytesToHex(v3Key));

    // Files as written before v3 (no v3 part) still load, and refresh gives them v3 shares of v3KeyFromV2(k).
    const old = path.join(root, 'v3-old');
    for (const file of first) {
      mkdirSync(path.join(old, `node-${file.index}`), { recursive: true, mode: 0o700 });
      writeFileSync(path.join(old, `node-${file.index}`, 'oprf-share.json'), encodeShareFile({ ...file, v3: undefined }), { mode: 0o600 });
    }
    expect((await readShares(old)).every((file) => file.v3 === undefined)).toBe(true);
    expect((await oprf(['refresh', '--threshold', '2', '--shares', '3', '--in', 'v3-old', '--out', 'v3-refreshed'])).code).toBe(0);
    const fresh = await readShares(path.join(root, 'v3-refreshed'));
    for (const file of fresh) expect(bytesToHex(file.v3!.groupPublicKey)).toBe(v3Group);
    for (const subset of subsets(fresh, 2)) expect(bytesToHex(babyJubjubSuite.recoverKey(hex(subset)))).toBe(bytesToHex(v3Key));
    // Old and new v3 shares do not mix: one of each interpolates to another key.
    for (const file of first) expect(bytesToHex(file.v3!.share)).not.toBe(bytesToHex(fresh[file.index - 1]!.v3!.share));
    expect(bytesToHex(babyJubjubSuite.recoverKey(hex([first[0]!, fresh[1]!])))).not.toBe(bytesToHex(v3Key));

    // A file whose v3 share is not its recorded v3 Kᵢ is refused, naming the v3 part.
    const swapped = encodeShareFile({ ...first[0]!, v3: { ...first[0]!.v3!, share: first[1]!.v3!.share } });
    expect(() => decodeShareFile(swapped, 'node-1')).toThrow(/the v3\.share does not match its recorded publicKey/);
    // Shares of another key's v3 beside this key's v2 shares are refused by refresh.
    const foreign = path.join(root, 'v3-foreign');
    const otherV3 = (await readShares(path.join(root, 'shares')))[0]!.v3!;
    for (const file of first) {
      mkdirSync(path.join(foreign, `node-${file.index}`), { recursive: true, mode: 0o700 });
      const v3 = file.index === 1 ? { ...otherV3, publicShares: otherV3.publicShares } : file.v3;
      writeFileSync(path.join(foreign, `node-${file.index}`, 'oprf-share.json'), encodeShareFile({ ...file, v3 }), { mode: 0o600 });
    }
    const refused = await oprf(['refresh', '--threshold', '2', '--shares', '3', '--in', 'v3-foreign', '--out', 'never-v3']);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/v3 shares .* belong to another key/);
  });

  it('refuses bad arguments with exit 2 and says what to change', async () => {
    const env = { OPRF_PRIVATE_KEY: Buffer.from(await loadOprfKey(path.join(root, 'k'), undefined)).toString('base64url') };
    const cases: Array<[string[], RegExp]> = [
      [['split', '--threshold', '1', '--shares', '3', '--out', 'x'], /at least 2/],
      [['split', '--threshold', '4', '--shares', '3', '--out', 'x'], /cannot exceed --shares/],
      [['split', '--threshold', '2', '--shares', '256', '--out', 'x'], /at most 255/],
      [['split', '--threshold', 'two', '--shares', '3', '--out', 'x'], /whole number/],
      [['split', '--threshold', '2', '--shares', '3'], /--out DIR is required/],
      [['split', '--threshold', '2', '--shares', '3', '--out', 'shares'], /exists and is not empty/],
      [['split', '--threshold', '2', '--shares', '3', '--out', 'x', '--bogus'], /Unknown option/],
      [['refresh', '--threshold', '2', '--shares', '3', '--out', 'x'], /needs --in/],
      [['merge'], /Unknown command/],
    ];
    for (const [args, message] of cases) {
      const { code, output } = await oprf(args, env);
      expect([args.join(' '), code]).toEqual([args.join(' '), 2]);
      expect(output).toMatch(message);
      expect(output).toContain('Usage:');
    }
    const noKey = await oprf(['split', '--threshold', '2', '--shares', '3', '--out', 'y'], { DATA_DIR: path.join(root, 'empty') });
    expect(noKey.code).toBe(2);
    expect(noKey.output).toMatch(/No OPRF key to split/);
    // A relative DATA_DIR is the server's, as `npm start` (run in apps/server) resolves it.
    const relative = await oprf(['split', '--threshold', '2', '--shares', '3', '--out', 'y'], { DATA_DIR: 'no-such-data' });
    expect(relative.output).toContain(path.resolve(import.meta.dirname, '../../no-such-data/oprf-key.json'));
    expect(readdirSync(root)).not.toContain('x');
  });

  it('runs as `npm run oprf` does (tsx): a bad call exits 2 with the message on stderr', async () => {
    const cli = path.resolve(import.meta.dirname, 'oprf.ts');
    const args = ['--import', 'tsx', cli, 'split', '--threshold', '3', '--shares', '2', '--out', 'z'];
    await expect(promisify(execFile)(process.execPath, args, { env: { ...process.env, INIT_CWD: root } })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--threshold cannot exceed --shares/),
    });
  });
});
