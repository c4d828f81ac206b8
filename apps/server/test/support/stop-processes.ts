import type { RunningPostgres } from '../embedded-postgres.ts';
import type { ServerProcess } from '../server-process.ts';
import { removeTempDirs } from './temp-dir.ts';
import { terminateCurve } from './terminate-curve.ts';

/**
 * The `afterAll` of a test file that runs server processes: every server stopped, then the
 * embedded PostgreSQL they used, then the temporary folders (`tempDir`) they wrote in, and the
 * proving curve's threads.
 */
export async function stopProcesses(servers: Iterable<ServerProcess | undefined>, postgres?: RunningPostgres): Promise<void> {
  await Promise.all([...servers].map(async (server) => server?.stop()));
  await postgres?.stop();
  removeTempDirs();
  await terminateCurve();
}
