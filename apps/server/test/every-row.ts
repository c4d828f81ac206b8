import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/** Where a server's database is: PostgreSQL by URL, or the SQLite file in a data directory. */
export type DatabaseAt = { databaseUrl: string } | { dataDir: string };

/** A row as text: its columns as JSON, binary ones in hex, so a scan can look for any value in any column. */
const asText = (row: Record<string, unknown>) =>
  JSON.stringify(row, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
  );

/**
 * Every row of every table of the database, each as text with its table's name: what a copy of the
 * database holds. Read beside the running servers (PostgreSQL, or SQLite in WAL mode, which lets a
 * reader in while they write).
 */
export async function everyRow(at: DatabaseAt): Promise<Array<{ table: string; text: string }>> {
  if ('databaseUrl' in at) {
    const connection = new pg.Client({ connectionString: at.databaseUrl });
    await connection.connect();
    try {
      const tables = await connection.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      );
      const rows = [];
      for (const { table_name: table } of tables.rows) {
        const { rows: found } = await connection.query<Record<string, unknown>>(`SELECT * FROM "${table}"`);
        rows.push(...found.map((row) => ({ table, text: asText(row) })));
      }
      return rows;
    } finally {
      await connection.end();
    }
  }
  const sqlite = new Database(path.join(at.dataDir, 'zeroid.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    return tables.flatMap(({ name: table }) =>
      (sqlite.prepare(`SELECT * FROM "${table}"`).all() as Array<Record<string, unknown>>).map((row) => ({ table, text: asText(row) })),
    );
  } finally {
    sqlite.close();
  }
}
