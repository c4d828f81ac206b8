/** Database errors: SQLite's SQLITE_* codes, PostgreSQL's connection and resource errors. */
export function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    code.startsWith('SQLITE_') ||
    [
      'ZEROID_STORAGE_UNAVAILABLE',
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'ENOSPC',
      'EROFS',
      'EACCES',
      '57P01',
      '57P02',
      '57P03',
      '53100',
      '53200',
      '53300',
      '08000',
      '08003',
      '08006',
      '08001',
      '08004',
    ].includes(code)
  );
}
