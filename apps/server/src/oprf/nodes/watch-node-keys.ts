import { setTimeout as sleep } from 'node:timers/promises';
import type { OprfNodeKeyReply } from '@zeroid/protocol';
import { SUITE_ID } from '@zeroid/protocol/v3';
import type { KeyFingerprintRepository } from '../../storage/types.ts';
import { keyFingerprint, V3_PURPOSE } from '../check-key-fingerprint.ts';
import { assessNodeKeys } from './assess-node-keys.ts';
import { assessV3NodeKeys, v3GroupCandidates } from './assess-node-keys-v3.ts';
import { usableNodes, type OprfNodeSet, type OprfNodesState } from './oprf-node-set.ts';
import { readNodeKeys } from './read-node-keys.ts';

/**
 * Every configured node answered, and fewer than t of them agree with each other and the database's
 * key: waiting cannot fix it, so the server refuses to start and says, node by node, what to change.
 */
export class OprfNodeSetMismatch extends Error {
  readonly code = 'ZEROID_OPRF_NODES_MISMATCH';
  constructor(message: string) {
    super(message);
    this.name = 'OprfNodeSetMismatch';
  }
}

/** The shortest time between two reads of the keys asked for early (`rereadSoon`). */
const MIN_EARLY_REREAD_MS = 1000;

interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * The node set a threshold server uses, kept current (decisions 021 and 033). `firstRead` waits,
 * with backoff, until t nodes publish keys that fit the database's group key, and adopts them;
 * `watch` then reads every node's key every `rereadMs` (OPRF_NODE_REREAD_MS, 5 s), so a node that was down joins, refreshed shares are
 * taken up, and a node that changed its key, came back on an old share or names another group is
 * left out. Each change of a node's standing is logged once, with its index, URL and the fix.
 *
 * Protocol v3 (decision 058): the nodes' v3 keys are assessed the same way against the v3 group key,
 * once that key is bound to the database (`bindV3`: the one its `oprf-v3` fingerprint records, or,
 * on a database without one, the key most nodes name, then recorded). Until then, and while no node
 * holds a v3 share, `current.v3` is undefined and the nodes serve v2 only.
 */
export function watchNodeKeys(
  state: OprfNodesState,
  {
    urls,
    threshold,
    timeoutMs,
    rereadMs,
    log,
    fingerprints,
  }: {
    urls: readonly string[];
    threshold: number;
    timeoutMs: number;
    rereadMs: number;
    log: Log;
    /** The database's key fingerprints once attached, to bind a v3 group key that appears while running. */
    fingerprints?: KeyFingerprintRepository;
  },
) {
  let timer: NodeJS.Timeout | undefined;
  /** The v3 group key bound to the database, and the replies of the last read. */
  let v3Group: Uint8Array | undefined;
  let lastReplies: (OprfNodeKeyReply | undefined)[] = [];
  let binding: Promise<void> | undefined;

  const assess = (replies: (OprfNodeKeyReply | undefined)[], options: Parameters<typeof assessNodeKeys>[3]) => {
    lastReplies = replies;
    const set = assessNodeKeys(urls, replies, threshold, options);
    return set && v3Group ? assessV3NodeKeys(set, replies, v3Group, options?.previous?.v3) : set;
  };

  /**
   * Binds the v3 group key to the database: the candidate its `oprf-v3` fingerprint records, else (no
   * record yet) the one most nodes name, recorded now. A database that records a v3 key no node names
   * keeps v3 off, and says so.
   */
  const bindV3 = (repository: KeyFingerprintRepository): Promise<void> => {
    const set = state.current;
    if (v3Group || !set) return Promise.resolve();
    const candidates = v3GroupCandidates(set, lastReplies);
    if (candidates.length === 0) return Promise.resolve();
    const fingerprintOf = (publicKey: Uint8Array) => keyFingerprint({ purpose: V3_PURPOSE, suite: SUITE_ID, publicKey });
    return (binding ??= (async () => {
      const recorded = (await repository.recorded(V3_PURPOSE)) ?? (await repository.adopt(V3_PURPOSE, fingerprintOf(candidates[0]!)));
      const chosen = candidates.find((candidate) => fingerprintOf(candidate) === recorded);
      if (!chosen) {
        log.warn({ nodes: urls.length }, 'no OPRF node holds a v3 share of the v3 group key this database records: protocol v3 is off');
        return;
      }
      v3Group = chosen;
      const current = state.current;
      if (current) adopt(assess(lastReplies, { groupPublicKey: current.groupPublicKey, previous: current })!);
      log.info({ usable: [...(state.current?.v3?.shares.keys() ?? [])] }, 'OPRF nodes serve protocol v3');
    })().finally(() => (binding = undefined)));
  };

  const adopt = (fresh: OprfNodeSet) => {
    const before = state.current;
    state.current = fresh;
    for (const node of fresh.nodes) {
      const was = before?.nodes[node.index - 1];
      const changed = !before || was?.problem !== node.problem || (was?.publicKey === undefined) !== (node.publicKey === undefined);
      if (fresh.v3 && (!before?.v3 || was?.v3Problem !== node.v3Problem)) {
        if (node.v3Problem && node.v3Problem !== node.problem)
          log.warn({ node: node.index, url: node.url, problem: node.v3Problem }, `OPRF node left out of protocol v3: ${node.v3Detail}`);
        else if (!node.v3Problem && before?.v3) log.info({ node: node.index, url: node.url }, 'OPRF node used again for protocol v3');
      }
      if (!changed) continue;
      if (node.problem) log.warn({ node: node.index, url: node.url, problem: node.problem }, `OPRF node left out: ${node.detail}`);
      else if (before) log.info({ node: node.index, url: node.url }, 'OPRF node used again: its key fits the others');
    }
    const keysChanged = fresh.nodes.some(
      (node, i) => node.publicKey && before?.nodes[i]?.publicKey && !Buffer.from(node.publicKey).equals(before.nodes[i].publicKey),
    );
    if (keysChanged)
      log.info({ usable: usableNodes(fresh).map((node) => node.index) }, 'OPRF node keys read again (the shares were refreshed)');
  };

  return {
    /**
     * Reads the nodes until t of them fit the group key that `isRecorded` recognises (the database's
     * fingerprint; on a new database, the key most nodes name), adopts that set and returns its
     * group key. A node that does not fit is left out and named, and does not hold up the start.
     * @throws OprfNodeSetMismatch when every node answered and fewer than t fit.
     */
    async firstRead(isRecorded: (groupPublicKey: Uint8Array) => boolean, closing: () => boolean): Promise<Uint8Array> {
      for (let attempt = 1, delayMs = 250; ; attempt++, delayMs = Math.min(delayMs * 2, 5_000)) {
        if (closing()) throw new Error('shutting down');
        const replies = await readNodeKeys(urls, timeoutMs);
        const set = assess(replies, { isRecorded });
        if (set && usableNodes(set).length >= threshold) {
          adopt(set);
          return set.groupPublicKey;
        }
        if (set && replies.every((reply) => reply !== undefined)) {
          throw new OprfNodeSetMismatch(
            `fewer than ${threshold} of the OPRF nodes in OPRF_NODES hold shares that fit together: ` +
              set.nodes.flatMap((node) => (node.detail ? [node.detail] : [])).join(' '),
          );
        }
        log.warn({ attempt, threshold, retryInMs: delayMs }, 'fewer OPRF nodes than the threshold answer with keys that fit: not ready');
        await sleep(delayMs);
      }
    },

    /**
     * Reads the keys again every few seconds, from the set adopted by `firstRead`, and sooner when
     * asked (`state.rereadSoon`: an evaluation failed, or a request was refused for the nodes): at
     * most one read at a time, and at most one a second (decision 053).
     */
    watch() {
      let reading = false;
      let lastStartedAt = 0;
      let soon: NodeJS.Timeout | undefined;
      const reread = () => {
        const set = state.current;
        if (!set || reading) return;
        reading = true;
        lastStartedAt = Date.now();
        readNodeKeys(urls, timeoutMs)
          .then(
            (replies) => {
              adopt(assess(replies, { groupPublicKey: set.groupPublicKey, previous: state.current })!);
              if (!v3Group && fingerprints) bindV3(fingerprints).catch(() => undefined);
            },
            () => undefined,
          )
          .finally(() => (reading = false));
      };
      timer = setInterval(reread, rereadMs);
      timer.unref();
      state.rereadSoon = () => {
        if (soon || reading) return;
        soon = setTimeout(
          () => {
            soon = undefined;
            reread();
          },
          Math.max(0, lastStartedAt + MIN_EARLY_REREAD_MS - Date.now()),
        );
        soon.unref();
      };
    },

    /** Binds the nodes' v3 group key to the database (at start, before the database is attached). */
    bindV3,

    stop() {
      clearInterval(timer);
      state.rereadSoon = undefined;
    },
  };
}
