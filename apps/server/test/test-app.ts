import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { OprfEvaluator } from '@zeroid/protocol';
import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from '../src/app-deps.ts';
import { buildApp } from '../src/app.ts';
import { createServices, type Services } from '../src/compose.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import type { Registry } from '../src/member-tree/member-tree.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import type { Storage } from '../src/storage/types.ts';

/** Test apps serve /metrics on their one listener to holders of this token (METRICS_TOKEN). */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789abcdef';

let artifacts: Promise<Artifacts> | undefined;
/** Checksumming 180 MB of artifacts once per test file is enough. */
const loadArtifactsOnce = () => (artifacts ??= Artifacts.load());

export interface TestApp {
  app: FastifyInstance;
  /** Everything `createServices` built for the app. */
  services: Services;
  storage: Storage;
  registry: Registry;
  oprf: OprfEvaluator;
  config: Config;
  dataDir: string;
  /** Every log line the app wrote, as raw text. */
  logs: string[];
  /** Closes app and storage, keeping the data directory (to test a restart). */
  close(): Promise<void>;
  /** Closes everything and deletes the data directory. */
  destroy(): Promise<void>;
}

/**
 * A real app on a real database (SQLite in a fresh temp dir unless `databaseUrl` is given) with a real
 * OPRF key (kept in the data directory), logging at trace level into memory so tests can scan the logs for raw values.
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    databaseUrl?: string;
    oprfPrivateKey?: Uint8Array;
    lifecycle?: Lifecycle;
  } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'zeroid-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'trace',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    // The raw path's derivations on the calling thread: a test app starts no derivation threads.
    DERIVATION_THREADS: '0',
    // Without a key, the key file in the data directory, as the server keeps it: a restart on the same directory keeps the key.
    ...(options.oprfPrivateKey && { OPRF_PRIVATE_KEY: Buffer.from(options.oprfPrivateKey).toString('base64url') }),
    ...options.env,
  });
  const services = await createServices(config, {
    storage: await openStorage({ databaseUrl: options.databaseUrl, dataDir, poolSize: 10 }),
    artifacts: await loadArtifactsOnce(),
    lifecycle: options.lifecycle ?? { warmingUp: false, draining: false },
  });

  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const app = await buildApp(services, { logger: { level: 'trace', stream } });
  await app.ready();

  const close = async () => {
    await app.close();
    await services.close();
  };
  return {
    app,
    services,
    storage: services.storage,
    registry: services.registry,
    oprf: services.oprf!,
    config,
    dataDir,
    logs,
    close,
    destroy: async () => {
      await close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
