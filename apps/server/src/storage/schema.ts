import type { ColumnType } from 'kysely';

/** Times are epoch milliseconds in a 64-bit integer, identical in SQLite and PostgreSQL. pg returns BIGINT as text. */
type EpochMs = ColumnType<number | string, number, number>;

export interface Database {
  identities: {
    leaf_index: number;
    /** NULL once erased (decision 022), as are id_tag and did. */
    commitment: string | null;
    id_tag: string | null;
    did: string | null;
    created_at: EpochMs;
  };
  roots: {
    size: number;
    root: string;
    created_at: EpochMs;
  };
  tree_checkpoints: {
    size: number;
    root: string;
    nodes: string;
    created_at: EpochMs;
  };
  tree_checkpoint_pages: {
    size: number;
    root: string;
    page: number;
    bytes: Uint8Array;
  };
  verification_sessions: {
    id: string;
    status: string;
    expires_at: EpochMs;
    completed_at: ColumnType<number | string | null, number | null, number | null>;
    /** SHA-256 (hex) of the secret the creating screen holds; null for sessions older than migration 005. */
    secret_hash: string | null;
    /** The sign-in (the provider's interaction id) this session finishes on a phone; null for a plain verification (migration 014). */
    sign_in: ColumnType<string | null, string | null | undefined, never>;
    /** The pseudonym a phone's accepted sign-in proof gave, written as the session completes. */
    subject: ColumnType<string | null, string | null | undefined, string | null>;
    /** SHA-256 of the confirmation code the completing phone was given (migration 015, decision 035). */
    confirmation_hash: ColumnType<string | null, string | null | undefined, string | null>;
    /** Wrong confirmation codes typed on the screen so far. */
    confirm_attempts: ColumnType<number, number | undefined, number>;
    /** When the screen's person typed the right code; set once. */
    confirmed_at: ColumnType<number | string | null, number | null | undefined, number | null>;
    /** When a phone first opened the pending session's link (migration 018, decision 047). */
    opened_at: ColumnType<number | string | null, number | null | undefined, number | null>;
    /** The issuer a phone's sign-in proved a credential of (migration 026, decision 088); cleared with `subject`. */
    credential_issuer: ColumnType<string | null, string | null | undefined, string | null>;
  };
  attempt_counters: {
    key: string;
    count: number;
    started_at: EpochMs;
    last_at: EpochMs;
  };
  key_fingerprints: {
    purpose: string;
    fingerprint: string;
    recorded_at: EpochMs;
  };
  /** The blinded points of every v3 registration (migration 022, decision 056): one evaluation, one registration. */
  registration_queries: {
    point: string;
    created_at: EpochMs;
  };
  /** Noisy biometrics' lockers (migration 023, decision 084): a locker's number and tag, and its seal. */
  noisy_lockers: {
    key: Uint8Array;
    seal: Uint8Array;
  };
  /** The ordered log of erased leaves that every process's tree catches up from (decision 022). */
  /** How far the freed bytes were scrubbed (migration 020, decision 053): 'erasures' → the last leaf_erasures.seq covered. */
  scrub_marks: {
    name: string;
    seq: ColumnType<number | string, number, number>;
  };
  leaf_erasures: {
    seq: number;
    leaf_index: number;
  };
  /** SHA-256 (hex) of each erased DID that is not registered again: it resolves as deactivated. */
  deactivated_dids: {
    did_hash: string;
  };
  /** The credential tree's leaves (migration 025, decision 088): '0' once the identity is erased. */
  credential_leaves: {
    position: number;
    leaf: string;
    leaf_index: number;
  };
  /** The credential tree's ordered log of erased positions, as `leaf_erasures` is the member tree's. */
  credential_leaf_erasures: {
    seq: number;
    position: number;
  };
  /** The credential tree's root history, shaped as `roots`. */
  credential_roots: {
    size: number;
    root: string;
    created_at: EpochMs;
  };
  /** The credential tree's checkpoints, shaped as the member tree's. */
  credential_tree_checkpoints: {
    size: number;
    root: string;
    nodes: string;
    created_at: EpochMs;
  };
  credential_tree_checkpoint_pages: {
    size: number;
    root: string;
    page: number;
    bytes: Uint8Array;
  };
  challenges: {
    nonce: string;
    expires_at: EpochMs;
    consumed_at: ColumnType<number | string | null, number | null, number | null>;
    /** NULL for challenges issued before migration 024. */
    issued_at: ColumnType<number | string | null, number | null | undefined, never>;
  };
  // Sign in with ZeroID (migration 009, decision 023).
  oidc_models: {
    model: string;
    id: string;
    payload: string;
    grant_id: string | null;
    uid: string | null;
    expires_at: EpochMs;
    consumed_at: ColumnType<number | string | null, number | null, number | null>;
    /** The pseudonym the record names, if any (migration 016, decision 036). */
    account_id: ColumnType<string | null, string | null | undefined, string | null>;
    /** The client (site) the record is for, if any. */
    client_id: ColumnType<string | null, string | null | undefined, string | null>;
  };
  oidc_clients: {
    client_id: string;
    metadata: string;
    created_at: EpochMs;
    /** Set by remove-client, which keeps the id so it is never given to another site (migration 017). */
    removed_at: ColumnType<number | string | null, number | null | undefined, number | null>;
  };
  oidc_keys: {
    kid: string;
    purpose: string;
    secret: string;
    created_at: EpochMs;
    /** When the key leaves the JWKS and is deleted: a key found in clear (migration 019, decision 049). */
    retire_at: ColumnType<number | string | null, number | null | undefined, number | null>;
    /** 1 for a key stored before migration 021 (decision 055): to be retired with a successor. */
    compromised: ColumnType<number, number | undefined, number>;
  };
}
