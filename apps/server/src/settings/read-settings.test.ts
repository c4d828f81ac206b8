import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { serverSettings } from './server-settings.ts';
import { loadNodeConfig, nodeSettings } from '../oprf-node/node-config.ts';
import { ConfigError } from './config-error.ts';
import { settingsHelp } from './settings-table.ts';

const problemsOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};
const ADMISSION_KEYS = 'A'.repeat(43);

describe('settings declared once (decision 046)', () => {
  it("names the guess delay alike in the server and a node, and still reads the server's earlier names", () => {
    const current = { GUESS_DELAY_SECONDS: '45', GUESS_MAX_DELAY_SECONDS: '600', GUESS_FORGET_SECONDS: '120' };
    const earlier = {
      FAILED_VERIFICATION_DELAY_SECONDS: '45',
      FAILED_VERIFICATION_MAX_DELAY_SECONDS: '600',
      FAILED_VERIFICATION_FORGET_SECONDS: '120',
    };
    const read = { guessDelayMs: 45_000, guessMaxDelayMs: 600_000, guessForgetMs: 120_000 };
    expect(loadConfig(current)).toMatchObject(read);
    expect(loadConfig(earlier)).toMatchObject(read);
    expect(loadNodeConfig({ ...current, ADMISSION_KEYS })).toMatchObject(read);
    expect(loadConfig({})).toMatchObject({ guessDelayMs: 30_000, guessMaxDelayMs: 900_000, guessForgetMs: 86_400_000 });
    expect(loadConfig({ GUESS_DELAY_SECONDS: '45', FAILED_VERIFICATION_DELAY_SECONDS: '45' }).guessDelayMs).toBe(45_000);
    expect(problemsOf(() => loadConfig({ GUESS_DELAY_SECONDS: '45', FAILED_VERIFICATION_DELAY_SECONDS: '60' }))).toEqual([
      'GUESS_DELAY_SECONDS and FAILED_VERIFICATION_DELAY_SECONDS name one setting: set only GUESS_DELAY_SECONDS',
    ]);
    expect(problemsOf(() => loadConfig({ FAILED_VERIFICATION_FORGET_SECONDS: '5' }))).toEqual([
      'FAILED_VERIFICATION_FORGET_SECONDS must be an integer from 60 to 31536000 (got "5")',
    ]);
  });

  it('takes an empty variable as unset, and lists every bad value at once in the order the settings are declared', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '', DERIVATION_THREADS: '' })).toMatchObject({ port: 8080, logLevel: 'info' });
    expect(
      problemsOf(() =>
        loadConfig({ QR_CACHE_ENTRIES: '0', DATABASE_URL: 'mysql://db', LOG_LEVEL: 'loud', SQLITE_MAX_SIZE_MB: 'big', PORT: '65536' }),
      ),
    ).toEqual([
      'PORT must be an integer from 0 to 65535 (got "65536")',
      'DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'SQLITE_MAX_SIZE_MB must be a number from 0 to 16000000 (got "big")',
      'QR_CACHE_ENTRIES must be an integer from 1 to 1000000 (got "0")',
    ]);
  });

  it('prints every setting of each process once in --help, with its default', () => {
    for (const schema of [serverSettings, nodeSettings]) {
      const lines = settingsHelp('title', schema).split('\n').slice(3);
      expect(lines.map((line) => line.trim().split(/\s+/)[0])).toEqual(Object.keys(schema.properties));
    }
    const help = settingsHelp('title', serverSettings);
    expect(help).toMatch(/^ {2}WEB_DIST +apps\/web\/dist +the built web app/m);
    expect(help).toMatch(/^ {2}PORT +8080 +port to listen on$/m);
    expect(help).toMatch(/^ {2}DERIVATION_THREADS +cores +/m);
  });
});
