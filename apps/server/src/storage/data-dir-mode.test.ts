import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOprfKey } from '../oprf/oprf-key.ts';
import { loadDataDirSecret } from './data-dir-secret.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

const parent = tempDir('zeroid-data-dir-');
afterAll(removeTempDirs);

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe('the data directory', () => {
  it('is made readable by its owner only (0700) by whichever file the server writes first, as the threat model says', async () => {
    const made = {
      'the OPRF key': async (dataDir: string) => void (await loadOprfKey(dataDir, undefined)),
      'a data-directory secret': async (dataDir: string) => void (await loadDataDirSecret(dataDir, 'test-secret.json')),
    };
    for (const [first, make] of Object.entries(made)) {
      const dataDir = path.join(parent, first.replaceAll(' ', '-'), 'data');
      await make(dataDir);
      expect(modeOf(dataDir), first).toBe('700');
      expect(modeOf(path.dirname(dataDir)), first).toBe('700');
    }
  });
});
