import { expect, it } from 'vitest';
import { threadEntry } from './thread-entry.ts';

it('finds a worker beside its caller in the sources, and beside the bundle when compiled', () => {
  expect(threadEntry('raw-deriver-worker', 'file:///app/apps/server/src/identity/raw/raw-deriver.ts').href).toBe(
    'file:///app/apps/server/src/identity/raw/raw-deriver-worker.ts',
  );
  expect(threadEntry('raw-deriver-worker', 'file:///app/apps/server/dist/server.js').href).toBe(
    'file:///app/apps/server/dist/raw-deriver-worker.js',
  );
});
