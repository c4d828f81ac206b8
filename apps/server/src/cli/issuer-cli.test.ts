import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCredential, verifyCredentialSignature } from '@zeroid/protocol/credential';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';
import { runIssuerCli } from './issuer-cli.ts';

const root = tempDir('zeroid-issuer-cli-');
afterAll(removeTempDirs);

/** Runs the tool in-process; returns its exit code, what it printed and what it printed as errors. */
async function issuer(args: string[]) {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runIssuerCli(args, { env: {}, cwd: root, print: (line) => out.push(line), printError: (line) => errors.push(line) });
  return { code, out, errors: errors.join('\n') };
}

describe('npm run issuer', () => {
  it('creates a key (mode 0600), prints its public key on one line, and issues a pasteable credential', async () => {
    const created = await issuer(['create', '--name', 'Example University', '--out', 'university.json']);
    expect(created.code).toBe(0);
    const file = path.join(root, 'university.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(created.out).toEqual([expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)]);
    expect(created.out.join()).not.toContain(JSON.parse(readFileSync(file, 'utf8')).privateKey);

    expect((await issuer(['public-key', '--key', 'university.json'])).out).toEqual(created.out);
    const issued = await issuer(['issue', '--key', 'university.json', '--id', 'Student 0042', '--expires', '2027-03-01']);
    expect(issued.code).toBe(0);
    expect(issued.out).toHaveLength(1);
    expect(issued.out[0]).not.toMatch(/\s/);
    const credential = readCredential(issued.out[0]!);
    expect(credential).toMatchObject({ issuerKey: created.out[0], id: 'Student 0042', expires: '2027-03-01' });
    expect(verifyCredentialSignature(credential)).toBe(true);
  });

  it('never overwrites a key, and refuses an edited key file, a bad date and missing options', async () => {
    await issuer(['create', '--name', 'Employer', '--out', 'employer.json']);
    expect(await issuer(['create', '--name', 'Other', '--out', 'employer.json'])).toMatchObject({
      code: 1,
      errors: expect.stringContaining('exists'),
    });
    const file = path.join(root, 'employer.json');
    const body = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...body, publicKey: 'A'.repeat(43) }));
    expect((await issuer(['issue', '--key', 'employer.json', '--id', 'x'])).errors).toContain('was edited');
    writeFileSync(file, JSON.stringify(body));
    expect(await issuer(['issue', '--key', 'employer.json', '--id', 'x', '--expires', '2027-02-30'])).toMatchObject({ code: 1 });
    expect(await issuer(['issue', '--key', 'employer.json'])).toMatchObject({ code: 2, errors: expect.stringContaining('needs --id') });
    expect(await issuer(['public-key', '--key', 'employer.json', '--id', 'x'])).toMatchObject({ code: 2 });
    expect(await issuer(['sign'])).toMatchObject({ code: 2 });
  });
});
