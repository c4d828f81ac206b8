import type Provider from 'oidc-provider';
import { unavailable } from '../problem.ts';
import { isStorageFailure } from '../storage/storage-failure.ts';

/**
 * The process's provider; a provider that cannot be built (storage down, or keys that do not open
 * with this process's secret, decision 038) is a 503, logged with what to fix (a storage failure is
 * logged where storage is watched, so not here).
 */
export async function currentProvider(
  provider: () => Promise<Provider>,
  log: { error(details: object, message: string): void },
): Promise<Provider> {
  return provider().catch((error: unknown) => {
    if (!isStorageFailure(error)) log.error({ err: { name: (error as Error).name } }, (error as Error).message);
    throw unavailable();
  });
}
