import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedPostgres, type RunningPostgres } from '../embedded-postgres.ts';

/**
 * A real PostgreSQL for the test file (or `describe` block) that calls this: started by a
 * `beforeAll` registered here, so call it before the hooks that use it; stopped by an `afterAll`
 * that runs after theirs (Vitest runs after-hooks in reverse order), once the servers using it have
 * stopped. The returned handle reads the running server; used before it started, it says so.
 */
export function usePostgres(): RunningPostgres {
  let running: RunningPostgres | undefined;
  beforeAll(async () => {
    running = await startEmbeddedPostgres();
  });
  afterAll(async () => {
    await running?.stop();
  });
  const started = (): RunningPostgres => {
    if (!running) throw new Error('The embedded PostgreSQL is not started yet: read it in a hook or a test, not while the file loads');
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get dataDir() {
      return started().dataDir;
    },
    createDatabase: () => started().createDatabase(),
    stop: () => started().stop(),
  };
}
