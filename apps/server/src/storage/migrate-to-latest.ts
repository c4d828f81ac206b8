import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import * as initial from './migrations/001-initial.ts';
import * as treeCheckpoints from './migrations/002-tree-checkpoints.ts';
import * as verificationSessions from './migrations/003-verification-sessions.ts';
import * as attemptCounters from './migrations/004-attempt-counters.ts';
import * as sessionSecrets from './migrations/005-session-secrets.ts';
import * as forgetAddressHashes from './migrations/006-forget-address-hashes.ts';
import * as keyFingerprints from './migrations/007-key-fingerprints.ts';
import * as identityErasure from './migrations/008-identity-erasure.ts';
// Sign in with ZeroID (decision 023).
import * as openidProvider from './migrations/009-openid-provider.ts';
import * as treeCheckpointPages from './migrations/012-tree-checkpoint-pages.ts';
// Sign in with ZeroID on a phone (decision 029).
import * as signInSessions from './migrations/014-sign-in-sessions.ts';
// Sign in with ZeroID must hold (decisions 035, 036 and 038).
import * as sessionConfirmation from './migrations/015-session-confirmation.ts';
import * as oidcRecordOwners from './migrations/016-oidc-record-owners.ts';
import * as removedClients from './migrations/017-removed-clients.ts';
// Sign in with ZeroID, attacked again (decisions 047 and 049).
import * as sessionOpenedAt from './migrations/018-session-opened-at.ts';
import * as keyRetirement from './migrations/019-key-retirement.ts';
// Threshold nodes and erasure, attacked (decision 053).
import * as scrubMarks from './migrations/020-scrub-marks.ts';
// Sign in with ZeroID, attacked a third time (decision 055).
import * as keysBeforeUpgradeCompromised from './migrations/021-keys-before-upgrade-compromised.ts';
// Protocol v3: every registration proven (decision 056).
import * as registrationQueries from './migrations/022-registration-queries.ts';
// Noisy biometrics, experimental (decision 084).
import * as noisyLockers from './migrations/023-noisy-lockers.ts';
import * as challengeIssueTimes from './migrations/024-challenge-issue-times.ts';
// Sign in with ZeroID tells a site of a credential (decision 088).
import * as credentialLeaves from './migrations/025-credential-leaves.ts';
import * as signInSessionCredential from './migrations/026-sign-in-session-credential.ts';
import type { Database } from './schema.ts';

/**
 * Numbered, applied in name order, and recorded in kysely_migration. Never edit one that has shipped.
 * 010, 011 and 013 were reserved by work in parallel that ended without a migration: nothing ever
 * shipped under them, and a database knows migrations by name, so the gaps stay and are never filled.
 */
export const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-tree-checkpoints': treeCheckpoints,
  '003-verification-sessions': verificationSessions,
  '004-attempt-counters': attemptCounters,
  '005-session-secrets': sessionSecrets,
  '006-forget-address-hashes': forgetAddressHashes,
  '007-key-fingerprints': keyFingerprints,
  '008-identity-erasure': identityErasure,
  // Sign in with ZeroID (decision 023).
  '009-openid-provider': openidProvider,
  '012-tree-checkpoint-pages': treeCheckpointPages,
  // Sign in with ZeroID on a phone (decision 029).
  '014-sign-in-sessions': signInSessions,
  // Sign in with ZeroID must hold (decisions 035, 036 and 038).
  '015-session-confirmation': sessionConfirmation,
  '016-oidc-record-owners': oidcRecordOwners,
  '017-removed-clients': removedClients,
  // Sign in with ZeroID, attacked again (decisions 047 and 049).
  '018-session-opened-at': sessionOpenedAt,
  '019-key-retirement': keyRetirement,
  '020-scrub-marks': scrubMarks,
  // Sign in with ZeroID, attacked a third time (decision 055).
  '021-keys-before-upgrade-compromised': keysBeforeUpgradeCompromised,
  // Protocol v3: every registration proven (decision 056).
  '022-registration-queries': registrationQueries,
  // Noisy biometrics, experimental (decision 084).
  '023-noisy-lockers': noisyLockers,
  '024-challenge-issue-times': challengeIssueTimes,
  // Sign in with ZeroID tells a site of a credential (decision 088).
  '025-credential-leaves': credentialLeaves,
  '026-sign-in-session-credential': signInSessionCredential,
};

/**
 * Brings the schema up to date; safe when several processes start at once.
 *
 * On PostgreSQL, Kysely's Migrator holds a session advisory lock and runs the pending migrations in
 * one transaction, so a second process waits and then finds nothing to do. On SQLite it takes no
 * lock and no transaction at all (its adapter declares no transactional DDL): two processes opening
 * a new file both run `CREATE TABLE identities` and one fails. So for SQLite the whole run, the
 * Migrator's own bookkeeping tables included, happens inside BEGIN IMMEDIATE on the one connection
 * Kysely uses: the write lock is taken first (other processes wait up to busy_timeout, on the SQLite
 * thread) and a failed migration leaves nothing half-applied.
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const migrate = async () => {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('Database migration failed', { cause: error });
  };
  if (dialect === 'postgres') return migrate();

  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    await migrate();
    await sql`COMMIT`.execute(db);
  } catch (error) {
    // SQLite may have rolled back already (a failed COMMIT); then ROLLBACK only says so.
    await sql`ROLLBACK`.execute(db).catch(() => undefined);
    throw error;
  }
}
