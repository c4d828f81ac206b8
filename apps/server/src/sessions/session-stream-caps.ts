export interface StreamCapSettings {
  /** Open event streams one client may hold, over all sessions. */
  perClient: number;
  /** Open event streams on one session, from all clients: a session has one screen. */
  perSession: number;
  /** Open event streams in this process, from everyone. */
  total: number;
}

export type StreamRefusal = 'client' | 'session' | 'total';

/**
 * Counts the open event streams, so a client cannot hold thousands of them (each one a socket and
 * a subscription). `open` either takes a place under all three caps and returns its release, or says
 * which cap is full; nothing is counted for a refused stream.
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
    open(client: string, session: string): { release: () => void } | { refused: StreamRefusal } {
      if (total >= caps.total) return { refused: 'total' };
      if ((byClient.get(client) ?? 0) >= caps.perClient) return { refused: 'client' };
      if ((bySession.get(session) ?? 0) >= caps.perSession) return { refused: 'session' };
      total++;
      add(byClient, client, 1);
      add(bySession, session, 1);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          total--;
          add(byClient, client, -1);
          add(bySession, session, -1);
        },
      };
    },
    get openStreams() {
      return total;
    },
  };
}

export type SessionStreamCaps = ReturnType<typeof createSessionStreamCaps>;
