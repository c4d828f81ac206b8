/**
 * PostgreSQL may abort a transaction that lost a race (serialization_failure 40001,
 * deadlock_detected 40P01); SQLite in WAL mode answers SQLITE_BUSY_SNAPSHOT, without waiting, when a
 * read transaction tries to write after another connection committed. Running the transaction
 * again is the documented remedy for both.
 *
 * Plain SQLITE_BUSY is not retried here: busy_timeout already retried it for seconds, and waiting
 * longer would only delay the 503. Every other error (unreachable, disk full, read-only, a
 * constraint) propagates at once.
 */
const RETRYABLE = new Set(['40001', '40P01', 'SQLITE_BUSY_SNAPSHOT']);

export async function retryOnContention<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !RETRYABLE.has(String((error as { code?: unknown }).code))) throw error;
      // Jittered backoff, so the losers of one race do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
