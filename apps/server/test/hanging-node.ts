import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A node that publishes a real node's key reply and never answers an evaluation: it reads each
 * POST and leaves it hanging. It counts the sockets that carried an evaluation and are still open,
 * so a test can see whether its callers closed them (decision 033). Key replies close their
 * connection, so they leave no socket behind.
 */
export async function startHangingNode(port: number, keyReply: string) {
  const open = new Set<Socket>();
  let posts = 0;
  let lastPostAt = 0;
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/oprf/public-key') {
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      return response.end(keyReply);
    }
    posts++;
    lastPostAt = Date.now();
    open.add(request.socket);
    request.socket.once('close', () => open.delete(request.socket));
    request.resume(); // read the body, answer nothing
  });
  // No timeouts of its own: whatever closes these sockets is the caller.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    /** Sockets that carried an evaluation and are still open. */
    openEvaluationSockets: () => open.size,
    posts: () => posts,
    lastPostAt: () => lastPostAt,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
