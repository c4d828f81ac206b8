import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * better-sqlite3, in the major that is sound on this Node (decision 078):
 * - Node 22 and later: better-sqlite3 13 (installed as `better-sqlite3-napi`). It is built on
 *   Node-API and ships its binaries in the npm package. Version 12 built against Node 24's headers
 *   aborts the process ("Assertion failed: (env) != nullptr") when V8 collects one of its
 *   statements outside a JavaScript context, which happens at random under load and when a thread
 *   ends (WiseLibs/better-sqlite3#1515, fixed only in 13).
 * - Node 20: better-sqlite3 12, the last major that supports it, built from source by `npm ci`.
 *   13's binaries need Node 22.
 * Both have the same API, so the rest of the server does not know which one it has.
 */
export const SQLite: typeof BetterSqlite3 =
  nodeMajor >= 22 ? (require('better-sqlite3-napi') as typeof BetterSqlite3) : (require('better-sqlite3') as typeof BetterSqlite3);

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
