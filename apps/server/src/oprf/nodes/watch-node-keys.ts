import { setTimeout as sleep } from 'node:timers/promises';
import { assessNodeKeys } from './assess-node-keys.ts';
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
 */
export function watchNodeKeys(
  state: OprfNodesState,
  {
    urls,
    threshold,
    timeoutMs,
    rereadMs,
    log,
  }: { urls: readonly string[]; threshold: number; timeoutMs: number; rereadMs: number; log: Log },
) {
  let timer: NodeJS.Timeout | undefined;

  const adopt = (fresh: OprfNodeSet) => {
    const before = state.current;
    state.current = fresh;
    for (const node of fresh.nodes) {
      const was = before?.nodes[node.index - 1];
      const changed = !before || was?.problem !== node.problem || (was?.publicKey === undefined) !== (node.publicKey === undefined);
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
        const set = assessNodeKeys(urls, replies, threshold, { isRecorded });
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
            (replies) => adopt(assessNodeKeys(urls, replies, threshold, { groupPublicKey: set.groupPublicKey, previous: state.current })!),
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

    stop() {
      clearInterval(timer);
      state.rereadSoon = undefined;
    },
  };
}
