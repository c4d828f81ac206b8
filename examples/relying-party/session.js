// The site's own session: what a site keeps between requests once ZeroID has signed a person in.
// A random id in a cookie, and everything else on the server: the cookie is HttpOnly (no script reads
// it), SameSite=Lax (sent when the person follows a link back here, as from ZeroID's redirect, but not
// on another site's POST), Secure on https, and says nothing by itself. Kept in memory here, so a
// restart signs everyone out; a site with more than one process puts the same records in its
// database or in Redis (express-session, @fastify/session and iron-session do all of this).
import { randomBytes } from 'node:crypto';

const COOKIE = 'sid';
/** A session not used for this long is forgotten: the person signs in again. */
const IDLE_MS = 8 * 60 * 60 * 1000;

/** @param {{ secure: boolean }} options */
export function createSessions({ secure }) {
  /** @type {Map<string, { data: Record<string, unknown>, seen: number }>} */
  const store = new Map();

  const cookie = (id, maxAge) => `${COOKIE}=${id}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;

  const forgetIdle = (now) => {
    for (const [id, entry] of store) if (now - entry.seen > IDLE_MS) store.delete(id);
  };

  return {
    /** The request's session data, or undefined (no cookie, an unknown id, or idle too long). */
    read(req) {
      const id = new RegExp(`(?:^|;\\s*)${COOKIE}=([A-Za-z0-9_-]{43})(?:;|$)`).exec(req.headers.cookie ?? '')?.[1];
      const entry = id && store.get(id);
      if (!entry) return undefined;
      const now = Date.now();
      if (now - entry.seen > IDLE_MS) {
        store.delete(id);
        return undefined;
      }
      entry.seen = now;
      return { id, data: entry.data };
    },
    /**
     * Starts a new session holding `data`, ending `previous` if given, and sets its cookie on `res`.
     * A new id at every step up (a sign-in) keeps an id someone planted before it from being signed in.
     */
    start(res, data, previous) {
      const now = Date.now();
      forgetIdle(now);
      if (previous) store.delete(previous);
      const id = randomBytes(32).toString('base64url');
      store.set(id, { data, seen: now });
      res.setHeader('set-cookie', cookie(id, IDLE_MS / 1000));
      return id;
    },
    /** Ends the session and clears its cookie. */
    end(res, id) {
      store.delete(id);
      res.setHeader('set-cookie', cookie('', 0));
    },
  };
}
