import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One identity's values as an erasure must remove them. */
export interface ErasedValues {
  commitment: string;
  idTag: string;
  did: string;
}

/**
 * Every form in which a file could hold one of an identity's values (decision 034): the DID;
 * the commitment in decimal, in hex (64 digits and without leading zeros) and as 32 bytes, big- and
 * little-endian (the tree checkpoints pack leaves as 32 bytes big-endian); the ID tag as its hex text
 * and as its 32 bytes.
 */
export function byteForms({ commitment, idTag, did }: ErasedValues): { form: string; bytes: Buffer }[] {
  const hex = BigInt(commitment).toString(16);
  const big = Buffer.from(hex.padStart(64, '0'), 'hex');
  return [
    { form: 'DID', bytes: Buffer.from(did) },
    { form: 'commitment (decimal)', bytes: Buffer.from(commitment) },
    { form: 'commitment (hex, 64 digits)', bytes: Buffer.from(hex.padStart(64, '0')) },
    { form: 'commitment (hex)', bytes: Buffer.from(hex) },
    { form: 'commitment (32 bytes, big-endian)', bytes: big },
    { form: 'commitment (32 bytes, little-endian)', bytes: Buffer.from(big).reverse() },
    { form: 'ID tag', bytes: Buffer.from(idTag) },
    { form: 'ID tag (32 bytes)', bytes: Buffer.from(idTag, 'hex') },
  ];
}

/** Which files under `dir` (recursively, every file) hold which forms of `values`: "file: form" lines, sorted. */
export function findBytes(dir: string, values: readonly ErasedValues[], only: (file: string) => boolean = () => true): string[] {
  const forms = values.flatMap(byteForms);
  const found = new Set<string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (only(path.relative(dir, file))) {
        const content = readFileSync(file);
        for (const { form, bytes } of forms) if (content.includes(bytes)) found.add(`${path.relative(dir, file)}: ${form}`);
      }
    }
  };
  walk(dir);
  return [...found].sort();
}

/** Which files under `dir` (recursively) hold any of `forms`: "file: form" lines, sorted. */
export function findForms(dir: string, forms: readonly { form: string; bytes: Buffer }[]): string[] {
  const found = new Set<string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else {
        const content = readFileSync(file);
        for (const { form, bytes } of forms) if (content.includes(bytes)) found.add(`${path.relative(dir, file)}: ${form}`);
      }
    }
  };
  walk(dir);
  return [...found].sort();
}
