import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { OPRF_SUITE, oprfPublicKey } from '@zeroid/protocol';
import { babyJubjubSuite, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { checkKeyFingerprint, keyFingerprint, KeyMismatchError, V3_PURPOSE } from '../oprf/check-key-fingerprint.ts';
import { OprfNodeSetMismatch } from '../oprf/nodes/watch-node-keys.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import type { DeferredStorage } from '../storage/deferred-storage.ts';
import type { KeyFingerprintRepository } from '../storage/types.ts';
import { openStorage, type StorageOptions } from '../storage/open-storage.ts';
import type { JobLog } from './job-log.ts';

/**
 * Opens the database in the background, again and again until it answers, so that a database that
 * is down at start makes the server not-ready instead of a crash loop: checks that it belongs to this
 * server's OPRF key (the single key's, or the nodes' group key once `groupKey` has read it), attaches
 * it, and loads the member tree. A database of another key is the one fault that waiting cannot fix:
 * it throws KeyMismatchError (or the nodes' OprfNodeSetMismatch) at once. Returns false if `closing`
 * turned true first.
 */
export async function connectStorage(
  storage: DeferredStorage,
  {
    options,
    oprfKey,
    groupKey,
    bindV3,
    registry,
    log,
    closing,
  }: {
    options: StorageOptions;
    /** The single key; undefined in threshold mode, where `groupKey` reads the nodes'. */
    oprfKey: Uint8Array | undefined;
    groupKey: ((isRecorded: (groupPublicKey: Uint8Array) => boolean) => Promise<Uint8Array>) | undefined;
    /** Threshold mode: binds the nodes' v3 group key to this database (its `oprf-v3` fingerprint), once read. */
    bindV3?: ((fingerprints: KeyFingerprintRepository) => Promise<void>) | undefined;
    /** The trees to catch up before the process is ready: the member tree and the credential tree (decision 088). */
    registry: Pick<Registry, 'catchUp'>;
    log: JobLog;
    closing: () => boolean;
  },
): Promise<boolean> {
  for (let attempt = 1, delayMs = 250; !closing(); attempt++, delayMs = Math.min(delayMs * 2, 5_000)) {
    try {
      const opened = await openStorage(options);
      if (closing()) {
        await opened.close();
        return false;
      }
      try {
        const recorded = await opened.keyFingerprints.recorded('oprf');
        const isRecorded = (groupPublicKey: Uint8Array) =>
          keyFingerprint({ purpose: 'oprf', suite: OPRF_SUITE, publicKey: groupPublicKey }) === recorded;
        const publicKey = oprfKey ? oprfPublicKey(oprfKey) : await groupKey!(isRecorded);
        // The group key is the single key's public key: a database made in single-key mode matches
        // the nodes its key was split among, and no others.
        await checkKeyFingerprint(opened.keyFingerprints, { purpose: 'oprf', suite: OPRF_SUITE, publicKey });
        // Protocol v3's key has a row of its own (decision 058): the single key's v3KeyFromV2, or the
        // nodes' v3 group key. Derived from the v2 key, it matches the nodes the key was split among.
        if (oprfKey) {
          const v3Key = v3KeyFromV2(oprfKey);
          await checkKeyFingerprint(opened.keyFingerprints, {
            purpose: V3_PURPOSE,
            suite: babyJubjubSuite.id,
            publicKey: babyJubjubSuite.publicKey(v3Key),
          });
          v3Key.fill(0);
        } else await bindV3?.(opened.keyFingerprints);
      } catch (error) {
        await opened.close();
        throw error;
      }
      storage.attach(opened);
      // An erasure whose scrub a crash cut off (decision 053): scrub now, in the background.
      opened.identities
        .scrubPendingErasures()
        .catch((error: unknown) => log.warn({ err: (error as Error).message }, 'scrubbing the bytes of earlier erasures failed'));
      await registry.catchUp();
      releaseStartupGarbage();
      return true;
    } catch (error) {
      if (error instanceof KeyMismatchError || error instanceof OprfNodeSetMismatch) throw error;
      const { name, code } = error as { name?: string; code?: string };
      log.warn({ attempt, err: { name, code, message: (error as Error).message }, retryInMs: delayMs }, 'storage not ready');
      await sleep(delayMs);
    }
  }
  return false;
}

/**
 * Loading a large tree leaves hundreds of MB of short-lived strings behind (at a million members the
 * heap holds ~600 MB of which ~140 MB is live), which V8 would keep committed until memory pressure
 * makes it collect. One full collection right after start-up gives that memory back at once.
 */
function releaseStartupGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
