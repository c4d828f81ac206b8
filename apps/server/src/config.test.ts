import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { ConfigError } from './settings/config-error.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('DATA_DIR', () => {
  it('is taken from where npm was started, as `npm run oidc` at the root takes it, not from apps/server', () => {
    expect(loadConfig({ INIT_CWD: '/srv/zeroid' }).dataDir).toBe(path.resolve('/srv/zeroid/data'));
    expect(loadConfig({ INIT_CWD: '/srv/zeroid', DATA_DIR: 'state' }).dataDir).toBe(path.resolve('/srv/zeroid/state'));
    expect(loadConfig({ INIT_CWD: '/srv/zeroid', DATA_DIR: '/var/lib/zeroid' }).dataDir).toBe('/var/lib/zeroid');
  });
});

describe('metrics settings', () => {
  it('serves /metrics nowhere by default, and its own listener on loopback when METRICS_PORT is set', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: undefined, metricsHost: '127.0.0.1', metricsToken: undefined });
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metricsHost).toBe('10.0.0.5');
  });

  it('refuses a metrics port that is the public port, or out of range', () => {
    expect(problemsOf({ PORT: '9000', METRICS_PORT: '9000' })).toEqual(['METRICS_PORT must differ from PORT']);
    expect(problemsOf({ METRICS_PORT: '0' })).toEqual(['METRICS_PORT must be an integer from 1 to 65535 (got "0")']);
  });

  it('takes a token of 32 printable characters or more, and never repeats a refused one', () => {
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const refused of ['short-secret-token', `${'b'.repeat(31)} c`]) {
      const problems = problemsOf({ METRICS_TOKEN: refused });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^METRICS_TOKEN must be at least 32 printable characters/);
      expect(problems[0]).not.toContain(refused);
    }
  });
});

describe('threshold OPRF settings', () => {
  it('is the single-key mode without OPRF_NODES, and a majority threshold by default with them', () => {
    expect(loadConfig({})).toMatchObject({ oprfNodes: [], attemptKeySecret: undefined });
    expect(loadConfig({ OPRF_NODES: 'http://a.test:1/, http://b.test:2,https://c.test' })).toMatchObject({
      oprfNodes: ['http://a.test:1', 'http://b.test:2', 'https://c.test'],
      oprfThreshold: 2,
    });
    expect(loadConfig({ OPRF_NODES: 'http://a.test,http://b.test,http://c.test', OPRF_THRESHOLD: '3' }).oprfThreshold).toBe(3);
  });

  it('refuses a threshold the nodes cannot meet, a lone or repeated node, a non-URL and a key beside the nodes', () => {
    const three = 'http://a.test,http://b.test,http://c.test';
    expect(problemsOf({ OPRF_NODES: three, OPRF_THRESHOLD: '4' })).toEqual([
      'OPRF_THRESHOLD must be from 2 to the number of OPRF_NODES (3), got 4',
    ]);
    expect(problemsOf({ OPRF_NODES: three, OPRF_THRESHOLD: '1' })).toHaveLength(1);
    expect(problemsOf({ OPRF_NODES: 'http://a.test' })[0]).toMatch(/^OPRF_NODES needs at least 2 nodes/);
    expect(problemsOf({ OPRF_NODES: 'http://a.test,http://a.test/' })).toEqual(['OPRF_NODES lists a node twice']);
    expect(problemsOf({ OPRF_NODES: 'http://a.test,ftp://b.test' })[0]).toMatch(/^OPRF_NODES entry "ftp:\/\/b.test" is not a URL/);
    expect(problemsOf({ OPRF_NODES: three, OPRF_PRIVATE_KEY: 'x' })[0]).toMatch(/^OPRF_PRIVATE_KEY and OPRF_NODES exclude each other/);
    expect(problemsOf({ ATTEMPT_KEY_SECRET: 'short' })[0]).toMatch(/^ATTEMPT_KEY_SECRET must be 32 bytes/);
  });
});

describe('credential settings (decision 079)', () => {
  const university = 'XtGKu4yllQRQwdQ61w4oYP4coWTf0sjdVXRge2oTqIE';
  it('trusts no issuer and requires no credential by default', () => {
    expect(loadConfig({})).toMatchObject({ trustedIssuers: [], requireCredential: false });
  });

  it('reads named and unnamed issuer keys, in order', () => {
    const { trustedIssuers, requireCredential } = loadConfig({
      TRUSTED_ISSUERS: ` Example University = ${university} `,
      REQUIRE_CREDENTIAL: 'true',
    });
    expect(trustedIssuers.map(({ name, publicKey }) => ({ name, publicKey }))).toEqual([
      { name: 'Example University', publicKey: university },
    ]);
    expect(requireCredential).toBe(true);
    expect(loadConfig({ TRUSTED_ISSUERS: university }).trustedIssuers[0]?.name).toBe('issuer XtGKu4yl');
  });

  it('refuses a key that is not one, a key listed twice, and a requirement nobody could meet', () => {
    // The all-zero encoding is (0, 0)'s: not on the curve. A small-order point is refused as well (protocol tests).
    expect(problemsOf({ TRUSTED_ISSUERS: `A=${'A'.repeat(43)}` })).toEqual([
      'TRUSTED_ISSUERS entry 1 is not an issuer public key (43 base64url characters from npm run issuer -- public-key)',
    ]);
    expect(problemsOf({ TRUSTED_ISSUERS: `${university},${university}` })).toEqual(['TRUSTED_ISSUERS lists the key XtGKu4yl… twice']);
    expect(problemsOf({ REQUIRE_CREDENTIAL: 'true' })).toEqual([
      'REQUIRE_CREDENTIAL=true needs at least one issuer in TRUSTED_ISSUERS: nobody could register',
    ]);
    expect(problemsOf({ REQUIRE_CREDENTIAL: 'yes' })).toHaveLength(1);
  });
});

describe('EXPERIMENTAL_NOISY_BIOMETRICS (decision 084)', () => {
  it('is off by default, and refused beside OPRF_NODES, which evaluate no lockers', () => {
    expect(loadConfig({}).experimentalNoisyBiometrics).toBe(false);
    expect(loadConfig({ EXPERIMENTAL_NOISY_BIOMETRICS: 'true' }).experimentalNoisyBiometrics).toBe(true);
    expect(problemsOf({ EXPERIMENTAL_NOISY_BIOMETRICS: 'true', OPRF_NODES: 'http://a.test,http://b.test' })).toEqual([
      "EXPERIMENTAL_NOISY_BIOMETRICS=true needs the server's own OPRF key: the OPRF nodes evaluate no lockers",
    ]);
  });
});
