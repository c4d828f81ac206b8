/**
 * Group commit: calls that arrive in the same turn of the event loop, or while a batch is being
 * written, go together into one batch, so a burst of N registrations costs a few transactions (and a
 * few fsyncs) instead of N. A lone call waits one turn of the loop (`setImmediate`), never a timer.
 * A failed batch fails every call in it, so nothing is acknowledged that was not committed.
 *
 * The turn gathers every call that finished its own work in the same turn (several derivations
 * answered by the worker threads at once, say); a batch being written gathers the rest, since the
 * SQLite connection works on its own thread (sqlite-thread.ts) while the event loop goes on.
 */
export function groupCommit<T, R>(write: (items: T[]) => Promise<R[]>, maxBatch = 64): (item: T) => Promise<R> {
  const queue: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  let writing = false;

  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await write(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => entry.resolve(results[i]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    writing = false;
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) {
        writing = true;
        setImmediate(() => void drain());
      }
    });
}
