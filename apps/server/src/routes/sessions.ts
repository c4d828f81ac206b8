import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SessionParams, SessionReply, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { guessLimited } from '../http/guess-limits.ts';
import type { Storage } from '../storage/types.ts';

const POLL_MS = 500;
const notFound = { error: { code: 'SESSION_NOT_FOUND', message: 'This verification session does not exist.' } };

async function describeSession(storage: Storage, id: string) {
  const session = await storage.sessions.find(id);
  return session && { session: session.id, status: session.status, expiresAt: session.expiresAt.toISOString() };
}

/**
 * Cross-device verification. A screen creates a session and shows its QR code; a phone opens the
 * link, verifies with a proof bound to the session, and the session completes once. The screen
 * learns the outcome through Server-Sent Events (or by polling GET /sessions/:id). Each stream reads
 * the database, so it works whichever process completed the session.
 */
export function sessionRoutes(app: FastifyInstance, { storage, config, limits }: AppDeps) {
  app.post('/sessions', { ...guessLimited(limits), schema: { response: { 200: SessionReply } } }, async () => {
    const id = randomBytes(16).toString('hex');
    await storage.sessions.create(id, new Date(Date.now() + config.sessionTtlMs));
    return (await describeSession(storage, id))!;
  });

  app.get<{ Params: Static<typeof SessionParams> }>(
    '/sessions/:id',
    { schema: { params: SessionParams, response: { 200: SessionReply } } },
    async (request, reply) => (await describeSession(storage, request.params.id)) ?? reply.code(404).send(notFound),
  );

  app.get<{ Params: Static<typeof SessionParams> }>(
    '/sessions/:id/events',
    { schema: { params: SessionParams, hide: true } },
    async (request, reply) => {
      let last = await describeSession(storage, request.params.id);
      if (!last) return reply.code(404).send(notFound);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (state: NonNullable<typeof last>) => out.write(`event: status\ndata: ${JSON.stringify(state)}\n\n`);
      send(last);
      let open = last.status === 'pending';
      const timer = setInterval(() => {
        void (async () => {
          try {
            const now = await describeSession(storage, request.params.id);
            if (!now || !open) return;
            if (now.status !== last?.status) send(now);
            else out.write(': keep-alive\n\n');
            last = now;
            if (now.status !== 'pending') close();
          } catch {
            close();
          }
        })();
      }, POLL_MS);
      const close = () => {
        open = false;
        clearInterval(timer);
        out.end();
      };
      request.raw.on('close', close);
      if (!open) close();
    },
  );
}
