import { createHash } from 'node:crypto';
import { credentialMessage } from '@zeroid/protocol/credential';
import { hashText } from '@zeroid/protocol/v3';
import pg from 'pg';

/**
 * Every form in which a credential or its ID could be left at rest or on the wire (P1 and P2 with
 * credentials, decisions 079 and 085): the text, its SHA-256 (hex, base64url, bytes), the ID's field
 * element `hashText` (decimal, hex, 32 bytes) and the message an issuer signs over it.
 */
export function credentialForms(secrets: Iterable<string>): Array<{ form: string; bytes: Buffer }> {
  return [...secrets].flatMap((secret) => {
    const sha = createHash('sha256').update(secret).digest();
    const hashed = hashText(secret);
    return [
      { form: `text of ${secret.slice(0, 30)}`, bytes: Buffer.from(secret) },
      { form: 'SHA-256 (hex)', bytes: Buffer.from(sha.toString('hex')) },
      { form: 'SHA-256 (base64url)', bytes: Buffer.from(sha.toString('base64url')) },
      { form: 'SHA-256 (bytes)', bytes: sha },
      { form: 'hashText (decimal)', bytes: Buffer.from(hashed.toString()) },
      { form: 'hashText (hex)', bytes: Buffer.from(hashed.toString(16)) },
      { form: 'hashText (32 bytes)', bytes: Buffer.from(hashed.toString(16).padStart(64, '0'), 'hex') },
      { form: 'signed message (decimal)', bytes: Buffer.from(credentialMessage(secret, 0).toString()) },
    ];
  });
}

/** Makes PostgreSQL write everything into its files, for a scan of its data directory (SQLite's WAL is a file already). */
export async function checkpointPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CHECKPOINT');
  await client.end();
}
