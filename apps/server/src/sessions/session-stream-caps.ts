export interface StreamCapSettings {
  /** Open event streams one client may hold, over all sessions. */
  perClient: number;
  /** Open event streams on one session, from all clients: a session has one screen. */
  perSession: number;
  /** Open event streams in this process, from everyone. */
  total: number;
}

export type StreamRefusal = 'client' | 'session' | 'total';

/** A place under the client and total caps, which can then join its session. */
export interface StreamPlace {
  /** Takes a place under the session's cap too, or says it is full (and the place still needs its release). */
  joinSession: (session: string) => { refused: 'session' } | undefined;
  /** Gives back every place taken; only the first call counts. */
  release: () => void;
}

/**
 * Counts the open event streams, so a client cannot hold thousands of them (each one a socket and
 * a subscription). In two steps: `open` takes a place under the client's and the total cap before
 * the session is read, so one client's reads stay bounded; `joinSession` takes the session's place
 * only once the stream's secret has been checked, so a request with a wrong secret never holds one
 * of the few places of a session whose id it knows (a QR code shows it). Nothing is counted for a
 * refused stream.
 */
export function createSessionStreamCaps(caps: StreamCapSettings) {
  const byClient = new Map<string, number>();
  const bySession = new Map<string, number>();
  let total = 0;

  const add = (counts: Map<string, number>, key: string, delta: number) => {
    const next = (counts.get(key) ?? 0) + delta;
    if (next === 0) counts.delete(key);
    else counts.set(key, next);
  };

  return {
    open(client: string): StreamPlace | { refused: StreamRefusal } {
      if (total >= caps.total) return { refused: 'total' };
      if ((byClient.get(client) ?? 0) >= caps.perClient) return { refused: 'client' };
      total++;
      add(byClient, client, 1);
      let joined: string | undefined;
      let released = false;
      return {
        joinSession: (session: string) => {
          if (released || joined !== undefined) throw new Error('a stream place joins one session, before its release');
          if ((bySession.get(session) ?? 0) >= caps.perSession) return { refused: 'session' };
          joined = session;
          add(bySession, session, 1);
          return undefined;
        },
        release: () => {
          if (released) return;
          released = true;
          total--;
          add(byClient, client, -1);
          if (joined !== undefined) add(bySession, joined, -1);
        },
      };
    },
    get openStreams() {
      return total;
    },
  };
}

export type SessionStreamCaps = ReturnType<typeof createSessionStreamCaps>;
