import type { OprfNodeKeyReply } from '@zeroid/protocol';

/**
 * Every node's GET /oprf/public-key, in the order of `urls`: a reply of the right shape, or
 * undefined for a node that does not answer well in time (it may come up later). Nothing is
 * checked against anything here; `assessNodeKeys` does that.
 */
export function readNodeKeys(urls: readonly string[], timeoutMs: number): Promise<(OprfNodeKeyReply | undefined)[]> {
  return Promise.all(urls.map((url) => readNodeKey(url, timeoutMs)));
}

async function readNodeKey(url: string, timeoutMs: number): Promise<OprfNodeKeyReply | undefined> {
  try {
    const response = await fetch(`${url}/oprf/public-key`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return undefined;
    const reply = (await response.json()) as Partial<OprfNodeKeyReply>;
    const base64url = (value: unknown) => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
    if (
      typeof reply.suite !== 'string' ||
      !Number.isInteger(reply.index) ||
      !Number.isInteger(reply.threshold) ||
      !base64url(reply.publicKey) ||
      !base64url(reply.groupPublicKey)
    ) {
      return undefined;
    }
    // A v3 key of the wrong shape is as if the node held none (it serves v2 only).
    const v3 = reply.v3;
    if (v3 !== undefined && (typeof v3 !== 'object' || v3 === null || !base64url(v3.publicKey) || !base64url(v3.groupPublicKey))) {
      delete reply.v3;
    }
    return reply as OprfNodeKeyReply;
  } catch {
    return undefined;
  }
}
