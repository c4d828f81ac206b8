import type { FastifyInstance, FastifyReply } from 'fastify';
import { createSessionGuide, sessionOutcomeGuide, sessionOpenGuide, sessionFailureGuide, sessionConfirmGuide } from './sessions.openapi.ts';
import {
  CreatedSessionReply,
  ErrorReply,
  SessionConfirmBody,
  SessionConfirmReply,
  SessionEventsQuery,
  SessionOpenReply,
  SessionParams,
  SessionReply,
  SessionSecretHeaders,
} from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { clientKey } from '../limits/client-key.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { hijackWithHeaders } from '../http/hijack-with-headers.ts';
import { perClientLimited } from '../http/per-client-limit.ts';
import { slowRefusal } from '../limits/slow-refusal.ts';
import { replyProblem } from '../http/reply-problem.ts';
import { Problem, sessionNotFound } from '../problem.ts';
import { screenView } from '../sessions/screen-view.ts';
import type { SessionState } from '../sessions/session-watcher.ts';
import { typed } from '../http/typed-app.ts';

const KEEP_ALIVE_MS = 15_000;
/** A refused stream may try again later; the web app polls GET /sessions/:id meanwhile. */
const STREAM_RETRY_SECONDS = 10;
const tooManyStreams = {
  client: 'This client already follows too many sessions.',
  session: 'This session already has too many screens following it.',
  total: 'The server is following too many sessions right now.',
} as const;

/**
 * Cross-device verification (decisions 007 and 012). A screen creates a session, keeps its secret and
 * shows its QR code; a phone opens the link (which carries no secret), verifies with a proof bound to
 * the session, and the session completes once. Only the holder of the secret reads the outcome,
 * through Server-Sent Events or by polling GET /sessions/:id. The streams only subscribe to the
 * process's session watcher, which reads the database once per interval for all of them.
 */
export function sessionRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { limits, sessionWatcher, streamCaps, qrImages } = deps;
  const api = typed(app);
  // Open streams end when the app closes: a stream lasts until its session settles, minutes away.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const close of openStreams) close();
  });

  app.post(
    '/sessions',
    { ...guessLimited(limits), schema: { 'x-guide': createSessionGuide, response: { 200: CreatedSessionReply } } },
    async () => {
      const created = await deps.useCases.createSession();
      return { ...created, link: qrImages.link(created.session) };
    },
  );

  /** The session, if the request holds its secret; otherwise a reply has been sent. */
  async function screenSession(id: string, secret: string | undefined, reply: FastifyReply) {
    const session = await deps.useCases.ownedSession(id, secret);
    if (!session) await replyProblem(reply, sessionNotFound());
    return session;
  }

  api.get(
    '/sessions/:id',
    {
      schema: {
        'x-guide': sessionOutcomeGuide,
        params: SessionParams,
        headers: SessionSecretHeaders,
        response: { 200: SessionReply, 403: ErrorReply },
      },
    },
    async (request, reply) => {
      const session = await screenSession(request.params.id, request.headers['session-secret'], reply);
      return session && screenView(session);
    },
  );

  // The phone's view: whether the session still waits, never its outcome (openid/open-session-on-phone.ts).
  api.get(
    '/sessions/:id/open',
    { ...perClientLimited(limits), schema: { 'x-guide': sessionOpenGuide, params: SessionParams, response: { 200: SessionOpenReply } } },
    async (request, reply) => {
      const opened = await deps.useCases.openSessionOnPhone(request.params.id, request.log);
      return opened ?? replyProblem(reply, sessionNotFound());
    },
  );

  api.post(
    '/sessions/:id/failure',
    { ...perClientLimited(limits), schema: { 'x-guide': sessionFailureGuide, params: SessionParams, response: { 200: SessionOpenReply } } },
    async (request, reply) => {
      const failed = await deps.useCases.failOnPhone(request.params.id);
      return failed ?? replyProblem(reply, sessionNotFound());
    },
  );

  // The person at this screen types the code the phone showed (decision 035; sessions/confirm-on-screen.ts).
  api.post(
    '/sessions/:id/confirm',
    {
      ...perClientLimited(limits),
      schema: {
        'x-guide': sessionConfirmGuide,
        params: SessionParams,
        headers: SessionSecretHeaders,
        body: SessionConfirmBody,
        response: { 200: SessionConfirmReply, 400: ErrorReply, 403: ErrorReply, 409: ErrorReply },
      },
    },
    async (request, reply) => {
      const confirmed = await deps.useCases.confirmOnScreen(request.params.id, request.headers['session-secret'], request.body.code);
      return confirmed ?? replyProblem(reply, sessionNotFound());
    },
  );

  api.get(
    '/sessions/:id/events',
    { schema: { params: SessionParams, querystring: SessionEventsQuery, hide: true } },
    async (request, reply) => {
      // The client's and the total cap first: a refused stream costs no database read, and its 429
      // comes after a pause, so a client retrying at once cannot keep the server busy with refusals.
      // The session's cap only after the secret: a wrong one never holds the screen's place.
      const refuse = async (refused: keyof typeof tooManyStreams) => {
        await slowRefusal();
        return new Problem(429, 'TOO_MANY_STREAMS', tooManyStreams[refused], { 'retry-after': String(STREAM_RETRY_SECONDS) });
      };
      const place = streamCaps.open(clientKey(request.ip, limits.ipv6Prefix));
      if ('refused' in place) throw await refuse(place.refused);
      const { release } = place;
      let session;
      try {
        session = await screenSession(request.params.id, request.query.secret, reply);
      } catch (error) {
        release();
        throw error;
      }
      if (!session) return release();
      const full = place.joinSession(session.id);
      if (full) {
        release();
        throw await refuse(full.refused);
      }

      const out = hijackWithHeaders(reply);
      out.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (state: SessionState) => out.write(`event: status\ndata: ${JSON.stringify(screenView(state))}\n\n`);
      if (session.status !== 'pending') {
        send(session);
        release();
        return out.end();
      }
      send(session);
      const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const stopWatching = sessionWatcher.watch(session, (state) => {
        send(state);
        if (state.status !== 'pending') close();
      });
      let closed = false;
      function close() {
        if (closed) return;
        closed = true;
        openStreams.delete(close);
        clearInterval(keepAlive);
        stopWatching();
        release();
        out.end();
      }
      openStreams.add(close);
      out.on('close', close);
    },
  );
}
