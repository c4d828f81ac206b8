/**
 * Group commit: calls that arrive while a batch is being written wait and go together into the next
 * one, so a burst of N registrations costs a few transactions (and a few fsyncs) instead of N. A
 * lone call runs at once; nothing waits on a timer. A failed batch fails every call in it, so
 * nothing is acknowledged that was not committed.
 */
export function groupCommit<T, R>(write: (items: T[]) => Promise<R[]>, maxBatch = 64): (item: T) => Promise<R> {
  const queue: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  let writing = false;

  const drain = async () => {
    writing = true;
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
      if (!writing) void drain();
    });
}
