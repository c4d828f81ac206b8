import type { ServerProcess } from '../server-process.ts';
import { removeTempDirs } from './temp-dir.ts';
import { terminateCurve } from './terminate-curve.ts';

/**
 * The `afterAll` of a test file that runs server processes: every server stopped, then the
 * temporary folders (`tempDir`) they wrote in, and the proving curve's threads. An embedded
 * PostgreSQL they used (`usePostgres`) stops after this, in its own `afterAll`.
 */
export async function stopProcesses(servers: Iterable<ServerProcess | undefined>): Promise<void> {
  await Promise.all([...servers].map(async (server) => server?.stop()));
  removeTempDirs();
  await terminateCurve();
}
