import type { Storage } from './types.ts';

/** What every repository call throws until the database is reached; the server answers 503. */
export class StorageUnavailableError extends Error {
  readonly code = 'ZEROID_STORAGE_UNAVAILABLE';
  constructor() {
    super('The database has not been reached yet.');
    this.name = 'StorageUnavailableError';
  }
}

export interface DeferredStorage extends Storage {
  /** Hands every later call to the opened database. */
  attach(storage: Storage): void;
  readonly attached: boolean;
}

const REPOSITORIES = [
  'identities',
  'roots',
  'credentialLeaves',
  'credentialRoots',
  'credentialCheckpoints',
  'challenges',
  'checkpoints',
  'sessions',
  'attempts',
  'keyFingerprints',
  'oidc',
  'noisyLockers',
] as const;

/**
 * A Storage the server can be built around before its database answers: the process listens at once,
 * reports not-ready on /healthz and 503 on every route that needs the database, and starts working
 * the moment `attach` is called (server.ts keeps trying to open the database in the background).
 */
export function deferredStorage(dialect: Storage['dialect']): DeferredStorage {
  let target: Storage | undefined;
  const unavailable = () => Promise.reject(new StorageUnavailableError());
  const forward = (repository: (typeof REPOSITORIES)[number]) =>
    new Proxy(
      {},
      {
        get:
          (_object, method: string) =>
          (...args: unknown[]) =>
            target ? (target[repository] as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args) : unavailable(),
      },
    );
  const repositories = Object.fromEntries(REPOSITORIES.map((name) => [name, forward(name)])) as Pick<
    Storage,
    (typeof REPOSITORIES)[number]
  >;
  return {
    dialect,
    ...repositories,
    ping: () => (target ? target.ping() : unavailable()),
    close: async () => target?.close(),
    attach(storage) {
      target = storage;
    },
    get attached() {
      return target !== undefined;
    },
  };
}
