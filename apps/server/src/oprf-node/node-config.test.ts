import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { loadNodeConfig } from './node-config.ts';

describe("an OPRF node's configuration", () => {
  it('has working defaults, and takes a relative DATA_DIR from where npm was started', () => {
    const config = loadNodeConfig({ INIT_CWD: '/srv/zeroid' });
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
      guessesBeforeDelay: 20,
      serverClientPerMinute: 3000,
    });
    expect(loadNodeConfig({ INIT_CWD: '/srv', DATA_DIR: 'n1' }).dataDir).toBe(path.resolve('/srv/n1'));
  });

  it('names server clients by exact address (IPv4-mapped as IPv4, IPv6 whole, never its /64)', () => {
    const config = loadNodeConfig({ SERVER_CLIENTS: '::ffff:10.0.0.5, 2001:db8::1', CORS_ORIGINS: 'https://app.example' });
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
      expect((error as ConfigError).problems).toEqual([
        'CORS_ORIGINS entry "*" is not an origin like https://app.example (a node allows the app\'s origins only, never *)',
        'CORS_ORIGINS entry "https://app.example/path" is not an origin like https://app.example (a node allows the app\'s origins only, never *)',
        'SERVER_CLIENTS entry "server.example" is not an IP address',
        'PORT must be an integer from 0 to 65535 (got "x")',
      ]);
    }
  });
});
