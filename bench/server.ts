// The bench's one door into the server (decision 046). What the server runs comes from
// `createServices`, the assembly point the server and the tests call too, so the bench measures the
// services as `npm start` builds them. Beside it, only what seeding and the simulation write
// directly, below any service: the storage, and the member tree's packed form, buckets and
// checkpoint pages (the ten-million seed builds them without a server).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Services } from '../apps/server/src/compose.ts';

export { Artifacts } from '../apps/server/src/proofs/artifacts.ts';
export { loadOprfKey } from '../apps/server/src/oprf/oprf-key.ts';
export { newClientMetadata } from '../apps/server/src/openid/client-metadata.ts';
export { openStorage } from '../apps/server/src/storage/open-storage.ts';
export { SQLite, type SqliteDatabase } from '../apps/server/src/storage/sqlite/sqlite-driver.ts';
export type { Storage } from '../apps/server/src/storage/types.ts';
export { BucketIndex, INDEXED_BUCKET_CHARS } from '../apps/server/src/member-tree/bucket-index.ts';
export { bucketHexChars, provingDepthFor } from '../apps/server/src/member-tree/member-tree.ts';
export { levelLengths, PackedLeanIMT } from '../apps/server/src/member-tree/packed-lean-imt.ts';
export {
  checkpointBytes,
  checkpointPieces,
  PAGED_CHECKPOINT,
  readCheckpointPages,
  savePagedCheckpoint,
} from '../apps/server/src/member-tree/tree-checkpoint-pages.ts';

/**
 * A server process's services, as `npm start` builds them from `env` (the server's settings), in a
 * fresh data directory unless `env` names one. The caller closes them (`close()`).
 */
export async function benchServices(env: Record<string, string> = {}): Promise<Services> {
  // Loaded here, not at the top: the seeding scripts import this file and need none of the services.
  const [{ createServices }, { loadConfig }] = await Promise.all([
    import('../apps/server/src/compose.ts'),
    import('../apps/server/src/config.ts'),
  ]);
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'zeroid-bench-services-'));
  return createServices(loadConfig({ ...env, DATA_DIR: dataDir }), { eager: true });
}
