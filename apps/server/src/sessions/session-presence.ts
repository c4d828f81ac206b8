/** Past this many sessions marked, the expired marks are swept before another is added. */
const SWEEP_FROM = 10_000;

export interface SessionPresence {
  /** A phone has opened the pending session's link; told to every screen following it, once. */
  markOpened(id: string, expiresAt: Date): void;
  opened(id: string): boolean;
  /** Calls `onOpened` when the session is marked from now on. Returns a function that stops it. */
  onOpened(id: string, onOpened: () => void): () => void;
}

/**
 * Which cross-device sessions a phone has opened, so the screen showing the QR code can say "phone
 * connected, waiting" before the verdict (issue 29). A hint, never a decision: anyone holding the
 * link can open it, and nothing is completed or refused by it. Kept in this process's memory: with
 * several processes, a phone served by another one goes unseen and the screen simply waits for the
 * verdict, as before (decision 043). Each mark lasts until its session's expiry.
 */
export function createSessionPresence(now: () => number = Date.now): SessionPresence {
  const marks = new Map<string, number>();
  const listeners = new Map<string, Set<() => void>>();

  const opened = (id: string) => (marks.get(id) ?? 0) > now();

  return {
    markOpened(id, expiresAt) {
      if (opened(id)) return;
      if (marks.size >= SWEEP_FROM) for (const [other, until] of marks) if (until <= now()) marks.delete(other);
      marks.set(id, expiresAt.getTime());
      for (const listener of listeners.get(id) ?? []) listener();
    },
    opened,
    onOpened(id, onOpened) {
      let set = listeners.get(id);
      if (!set) listeners.set(id, (set = new Set()));
      set.add(onOpened);
      return () => {
        set.delete(onOpened);
        if (set.size === 0) listeners.delete(id);
      };
    },
  };
}
