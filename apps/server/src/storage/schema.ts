import type { ColumnType } from 'kysely';

/** Times are epoch milliseconds in a 64-bit integer, identical in SQLite and PostgreSQL. pg returns BIGINT as text. */
type EpochMs = ColumnType<number | string, number, number>;

export interface Database {
  identities: {
    leaf_index: number;
    commitment: string;
    id_tag: string;
    did: string;
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
  challenges: {
    nonce: string;
    expires_at: EpochMs;
    consumed_at: ColumnType<number | string | null, number | null, number | null>;
  };
}
