import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../settings/config-error.ts';
import { loadNodeConfig } from './node-config.ts';

/** A server's admission key (decision 032), which every node must be given. */
const ADMISSION_KEYS = 'A'.repeat(43);

describe("an OPRF node's configuration", () => {
  it('has working defaults, and takes a relative DATA_DIR from where npm was started', () => {
    const config = loadNodeConfig({ INIT_CWD: '/srv/zeroid', ADMISSION_KEYS });
    expect(config).toMatchObject({
      port: 8091,
      host: '127.0.0.1',
      dataDir: '/srv/zeroid/data/oprf-node',
      corsOrigins: [],
      serverClients: [],
    });
    expect(config).toMatchObject({
      rateLimitPerMinute: 60,
      rateLimitGlobalPerMinute: 6000,
      guessesBeforeDelay: 200,
      guessRefillMs: 900_000,
      serverClientPerMinute: 3000,
      admissionMaxAgeMs: 60_000,
    });
    expect(config.admissionKeys).toEqual([new Uint8Array(32)]);
    expect(loadNodeConfig({ INIT_CWD: '/srv', DATA_DIR: 'n1', ADMISSION_KEYS }).dataDir).toBe(path.resolve('/srv/n1'));
  });

  it('names server clients by exact address (IPv4-mapped as IPv4, IPv6 whole, never its /64)', () => {
    const config = loadNodeConfig({ SERVER_CLIENTS: '::ffff:10.0.0.5, 2001:db8::1', CORS_ORIGINS: 'https://app.example', ADMISSION_KEYS });
    expect(config.serverClients).toEqual(['10.0.0.5', '2001:db8:0:0:0:0:0:1']);
    expect(config.corsOrigins).toEqual(['https://app.example']);
  });

  it('lists every bad value at once, and never allows every origin', () => {
    expect(() => loadNodeConfig({ CORS_ORIGINS: '*,https://app.example/path', SERVER_CLIENTS: 'server.example', PORT: 'x' })).toThrow(
      ConfigError,
    );
    try {
      loadNodeConfig({ CORS_ORIGINS: '*,https://app.example/path', SERVER_CLIENTS: 'server.example', PORT: 'x' });
    } catch (error) {
      // In the order the settings are declared, as the README's table lists them.
      expect((error as ConfigError).problems).toEqual([
        'PORT must be an integer from 0 to 65535 (got "x")',
        'CORS_ORIGINS entry "*" is not an origin like https://app.example (a node allows the app\'s origins only, never *)',
        'CORS_ORIGINS entry "https://app.example/path" is not an origin like https://app.example (a node allows the app\'s origins only, never *)',
        'SERVER_CLIENTS entry "server.example" is not an IP address',
        "ADMISSION_KEYS is not set: list the admission key of each ZeroID server (its GET /oprf/public-key's admissionKey, also in its start-up log); the node evaluates only what a server admitted",
      ]);
    }
  });
});
