import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { SessionChange, SessionRepository, StoredSession } from '../types.ts';

/** Well under SQLite's and PostgreSQL's limits on bound parameters in one statement. */
const IDS_PER_QUERY = 500;

function toSession(row: Selectable<Database['verification_sessions']>, now: Date): StoredSession {
  const expiresAt = new Date(Number(row.expires_at));
  const status =
    row.status === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : (row.status as 'pending' | 'success' | 'failure');
  return {
    id: row.id,
    status,
    expiresAt,
    secretHash: row.secret_hash,
    ...(row.sign_in === null ? {} : { signIn: row.sign_in }),
    ...(row.subject === null ? {} : { subject: row.subject }),
    ...(row.credential_issuer === null ? {} : { credentialIssuer: row.credential_issuer }),
    ...(row.confirmed_at === null ? {} : { confirmed: true as const }),
    ...(row.opened_at === null ? {} : { phoneOpened: true as const }),
  };
}

/** Sessions complete once: one conditional UPDATE decides, across every process. */
export function sessionRepository(db: Kysely<Database>): SessionRepository {
  return {
    async create(id, expiresAt, secretHash, signIn) {
      await db
        .insertInto('verification_sessions')
        .values({
          id,
          status: 'pending',
          expires_at: expiresAt.getTime(),
          completed_at: null,
          secret_hash: secretHash,
          sign_in: signIn ?? null,
        })
        .execute();
    },

    async find(id, now = new Date()) {
      const row = await db.selectFrom('verification_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row, now);
    },

    async findChanged(ids) {
      const changed = new Map<string, SessionChange>();
      for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
        const rows = await db
          .selectFrom('verification_sessions')
          .select(['id', 'status', 'confirmed_at', 'opened_at'])
          .where('id', 'in', ids.slice(start, start + IDS_PER_QUERY))
          .where((eb) => eb.or([eb('status', '!=', 'pending'), eb('opened_at', 'is not', null)]))
          .execute();
        for (const row of rows) {
          changed.set(row.id, {
            status: row.status as SessionChange['status'],
            ...(row.confirmed_at === null ? {} : { confirmed: true as const }),
            ...(row.opened_at === null ? {} : { phoneOpened: true as const }),
          });
        }
      }
      return changed;
    },

    async markOpened(id, now = new Date()) {
      const result = await db
        .updateTable('verification_sessions')
        .set({ opened_at: now.getTime() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('opened_at', 'is', null)
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async complete(id, status, now = new Date(), { subject, confirmationHash, credentialIssuer } = {}) {
      const result = await db
        .updateTable('verification_sessions')
        .set({
          status,
          completed_at: now.getTime(),
          subject: subject ?? null,
          confirmation_hash: confirmationHash ?? null,
          credential_issuer: credentialIssuer ?? null,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async confirm(id, confirmationHash, { maxAttempts, confirmableUntil }, now = new Date()) {
      // One UPDATE checks the code and counts the attempt, right or wrong, so no number of concurrent
      // guesses, in any number of processes, gets more than maxAttempts codes checked: each one must
      // find fewer than maxAttempts counted to be checked at all. A right code confirms and clears
      // the pseudonym; the last allowed wrong one fails the session, and its pseudonym goes with it.
      const right = sql<boolean>`(confirmation_hash IS NOT NULL AND confirmation_hash = ${confirmationHash})`;
      const last = sql<boolean>`(confirm_attempts + 1 >= ${maxAttempts})`;
      const checked = await db
        .updateTable('verification_sessions')
        .set({
          confirm_attempts: sql<number>`confirm_attempts + 1`,
          confirmed_at: sql<number | null>`CASE WHEN ${right} THEN CAST(${now.getTime()} AS BIGINT) ELSE NULL END`,
          status: sql<string>`CASE WHEN ${right} OR NOT ${last} THEN status ELSE 'failure' END`,
          subject: sql<string | null>`CASE WHEN ${right} OR ${last} THEN NULL ELSE subject END`,
          credential_issuer: sql<string | null>`CASE WHEN ${right} OR ${last} THEN NULL ELSE credential_issuer END`,
        })
        .where('id', '=', id)
        .where('status', '=', 'success')
        .where('confirmed_at', 'is', null)
        .where('confirm_attempts', '<', maxAttempts)
        .where('expires_at', '>', now.getTime() - confirmableUntil)
        .returning(['confirmed_at', 'confirm_attempts'])
        .executeTakeFirst();
      if (!checked) return { confirmed: false, attemptsLeft: 0 };
      return { confirmed: checked.confirmed_at !== null, attemptsLeft: maxAttempts - Number(checked.confirm_attempts) };
    },

    async forgetSubjects(subjects) {
      // An erased person's pending sign-ins on a phone: failed, without their pseudonym.
      for (let start = 0; start < subjects.length; start += IDS_PER_QUERY) {
        await db
          .updateTable('verification_sessions')
          .set({ subject: null, credential_issuer: null, status: 'failure' })
          .where('subject', 'in', subjects.slice(start, start + IDS_PER_QUERY))
          .execute();
      }
    },

    async purgeExpired(now = new Date(), { subjectsAfterMs = 0 } = {}) {
      // A pseudonym lives no longer than its session (decision 036): cleared at expiry (plus the
      // confirmation's grace), the row itself an hour later.
      const cleared = await db
        .updateTable('verification_sessions')
        .set({ subject: null, credential_issuer: null })
        .where('subject', 'is not', null)
        .where('expires_at', '<=', now.getTime() - subjectsAfterMs)
        .executeTakeFirst();
      const result = await db
        .deleteFrom('verification_sessions')
        .where('expires_at', '<=', now.getTime() - 3_600_000)
        .executeTakeFirst();
      return Number(cleared.numUpdatedRows) + Number(result.numDeletedRows);
    },
  };
}
