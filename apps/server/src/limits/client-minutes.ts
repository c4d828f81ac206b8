const WINDOW_MS = 60_000;

/**
 * Each client's own minute (decision 070), for routes that cost work but test no guess: `perMinute`
 * requests in a minute that starts at the client's first request. A window of the client's own keeps
 * the count whole whenever the client comes: one shared minute would start afresh in the middle of a
 * client's burst. Counts live in this process's memory; a window is forgotten once it has ended.
 * Counts one request of the client `key` at `now`: undefined when it is admitted, else the time its
 * minute ends.
 */
export function clientMinutes(perMinute: number): (key: string, now: number) => number | undefined {
  const windows = new Map<string, { count: number; ends: number }>();
  let sweepAt = Date.now() + WINDOW_MS;
  return (key, now) => {
    if (now >= sweepAt) {
      for (const [held, window] of windows) if (now >= window.ends) windows.delete(held);
      sweepAt = now + WINDOW_MS;
    }
    let window = windows.get(key);
    if (window === undefined || now >= window.ends) {
      window = { count: 0, ends: now + WINDOW_MS };
      windows.set(key, window);
    }
    window.count++;
    return window.count <= perMinute ? undefined : window.ends;
  };
}
