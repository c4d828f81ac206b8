import http from 'node:http';
import https from 'node:https';

/** Connections to the nodes are kept open between rounds (Node's agents, keep-alive on). */
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
/** A node's answer is about 140 bytes of JSON; anything much longer is not one. */
const MAX_REPLY_BYTES = 4096;

type Reply = { status: number; text: string };

/**
 * POST `body` (JSON) to a node with node:http and a keep-alive agent: the raw path makes four of
 * these per registration, and fetch (undici) cost several times this in CPU under load (decision
 * 026; docs/benchmarks.md, "Threshold round"). Resolves with the status and the text of the reply; rejects when the
 * node cannot be reached, the reply is too long, or `signal` aborts.
 *
 * A kept-alive connection the node closed while it sat idle (a node closes them after 5 s) fails
 * the next request sent on it; that request is sent once more, on a fresh connection rather than
 * the pool's next idle one (which may be just as stale), as Node's documentation advises
 * (`request.reusedSocket`).
 */
export async function postToNode(url: URL, body: string, headers: Record<string, string>, signal: AbortSignal): Promise<Reply> {
  try {
    return await postOnce(url, body, headers, signal, true);
  } catch (error) {
    if (!(error as { staleSocket?: boolean }).staleSocket || signal.aborted) throw error;
    return postOnce(url, body, headers, signal, false);
  }
}

function postOnce(url: URL, body: string, headers: Record<string, string>, signal: AbortSignal, pooled: boolean): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const pool = agents[url.protocol as keyof typeof agents];
    if (!pool) return reject(new Error(`Unsupported protocol ${url.protocol}`));
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        agent: pooled ? pool : false,
        signal,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          length += chunk.length;
          if (length > MAX_REPLY_BYTES) response.destroy(new Error('Reply too long'));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
        response.on('aborted', () => reject(new Error('Reply aborted')));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      reject(Object.assign(error, { staleSocket: request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') }));
    });
    request.end(body);
  });
}
