import type { SessionRepository, StoredSession } from '../storage/types.ts';

export type SessionState = Pick<StoredSession, 'id' | 'status' | 'expiresAt' | 'confirmed' | 'phoneOpened'>;
type Listener = (state: SessionState) => void;

export interface SessionWatcher {
  /**
   * Calls `onChange` when a phone opens the pending session `known` (once), and when it completes or
   * expires; the session is then dropped. Returns a function that stops watching.
   */
  watch(known: SessionState, onChange: Listener): () => void;
  /** Sessions watched right now (each read once per poll, whatever its number of streams). */
  readonly watchedSessions: number;
  /** Polls so far; for tests and metrics. */
  readonly polls: number;
  close(): void;
}

interface Watched {
  last: SessionState;
  listeners: Set<Listener>;
}

/**
 * One poller per process for every session a screen is following. Every `intervalMs` it asks, in one
 * query (or one per 500 sessions), which watched sessions a phone has opened or completed, and tells
 * each stream of a session that was opened, completed or expired. The next poll is scheduled only
 * when the previous one has finished, so a slow database gets fewer reads, never a pile of
 * overlapping ones; and 5,000 streams on one session cost one read per interval, not 5,000. Reading
 * the database (not an in-process event) is what lets a phone served by another process open or
 * complete a session this process's screen is watching (decision 047).
 */
export function createSessionWatcher(
  sessions: Pick<SessionRepository, 'findChanged'>,
  { intervalMs, onError }: { intervalMs: number; onError?: (error: unknown) => void },
): SessionWatcher {
  const watched = new Map<string, Watched>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let polls = 0;
  let closed = false;

  const schedule = () => {
    if (closed || polling || timer || watched.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void poll();
    }, intervalMs);
  };

  async function poll() {
    polling = true;
    polls++;
    try {
      const ids = [...watched.keys()];
      const changed = await sessions.findChanged(ids);
      const now = Date.now();
      // Only the sessions this poll read: one watched while it ran waits for the next. Expiry needs
      // no read: each session's expiry is known from when it was first watched.
      for (const id of ids) {
        const entry = watched.get(id);
        if (!entry) continue;
        const found = changed.get(id);
        const status = found && found.status !== 'pending' ? found.status : entry.last.expiresAt.getTime() <= now ? 'expired' : 'pending';
        const opened = status === 'pending' && found?.phoneOpened === true && entry.last.phoneOpened !== true;
        if (status === entry.last.status && !opened) continue;
        const { confirmed, phoneOpened } = found ?? {};
        const state: SessionState = {
          id: entry.last.id,
          status,
          expiresAt: entry.last.expiresAt,
          ...(confirmed ? { confirmed } : {}),
          ...(phoneOpened ? { phoneOpened } : {}),
        };
        entry.last = state;
        if (status !== 'pending') watched.delete(id);
        for (const listener of entry.listeners) listener(state);
      }
    } catch (error) {
      // A database hiccup: the streams stay open and the next poll tries again.
      onError?.(error);
    } finally {
      polling = false;
      schedule();
    }
  }

  return {
    watch(known, onChange) {
      let entry = watched.get(known.id);
      if (!entry) {
        entry = { last: known, listeners: new Set() };
        watched.set(known.id, entry);
      }
      const listener: Listener = (state) => onChange(state);
      entry.listeners.add(listener);
      schedule();
      const mine = entry;
      return () => {
        mine.listeners.delete(listener);
        if (mine.listeners.size === 0 && watched.get(known.id) === mine) watched.delete(known.id);
      };
    },
    get watchedSessions() {
      return watched.size;
    },
    get polls() {
      return polls;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      watched.clear();
    },
  };
}
