import { blindQuery, decodePoint, decodeScalar } from '@zeroid/protocol/v3';
import type { OprfShareFile } from '../oprf/oprf-share-file.ts';
import { v3EvaluateBatch } from '../oprf/batch-v3.ts';

/**
 * Protocol v3 evaluations a node runs on made-up points before it listens (decision 075). Its v3
 * arithmetic is BigInt code that V8 interprets until it has run a while: cold, a node's first
 * batches took several times their usual time, and a burst that came just after a start timed out
 * there. Nothing of this reaches a client; the answers are thrown away.
 */
const WARM_UP_BATCHES = 20;

export function warmUpNode(share: OprfShareFile): void {
  if (!share.v3) return;
  const key = decodeScalar(share.v3.share)!;
  const publicKey = decodePoint(share.v3.publicKey)!;
  for (let i = 0; i < WARM_UP_BATCHES; i++) {
    v3EvaluateBatch(key, publicKey, [blindQuery('bio', `warm-up ${i}`).blinded, blindQuery('id', `warm-up ${i}`).blinded]);
  }
}
