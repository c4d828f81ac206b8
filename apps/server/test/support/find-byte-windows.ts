import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One thing a file must not hold, in one encoding: its name, and its bytes (8 or more). */
export interface ByteForm {
  form: string;
  bytes: Buffer;
}

/** Where a form is looked up from: its first 4 bytes that are not all one value (a zero page matches none). */
function anchorOf(bytes: Buffer): number {
  for (let at = 0; at + 4 <= bytes.length; at++) if (new Set(bytes.subarray(at, at + 4)).size > 1) return at;
  throw new RangeError('a form of one repeated byte would match by chance');
}

/**
 * Which files under `dir` (recursively) hold any of `forms`: "file: form" lines, sorted. One pass a
 * file: each offset's 4 bytes are looked up among the forms' anchors (`anchorOf`), and only a hit
 * compares the whole form, so thousands of forms cost one read of a PostgreSQL data directory, WAL
 * included.
 */
export function findByteWindows(dir: string, forms: readonly ByteForm[]): string[] {
  const byAnchor = new Map<number, { form: string; bytes: Buffer; anchor: number }[]>();
  for (const { form, bytes } of forms) {
    if (bytes.length < 8) throw new RangeError(`${form}: a form of fewer than 8 bytes would match by chance`);
    const anchor = anchorOf(bytes);
    const key = bytes.readUInt32LE(anchor);
    byAnchor.set(key, [...(byAnchor.get(key) ?? []), { form, bytes, anchor }]);
  }
  const found = new Set<string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      const stat = statSync(file, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(file);
      else if (stat.isFile()) {
        const content = readFileSync(file);
        for (let i = 0; i + 4 <= content.length; i++) {
          const candidates = byAnchor.get(content.readUInt32LE(i));
          if (!candidates) continue;
          for (const { form, bytes, anchor } of candidates) {
            const start = i - anchor;
            if (
              start >= 0 &&
              start + bytes.length <= content.length &&
              content.compare(bytes, 0, bytes.length, start, start + bytes.length) === 0
            )
              found.add(`${path.relative(dir, file)}: ${form}`);
          }
        }
      }
    }
  };
  walk(dir);
  return [...found].sort();
}

/**
 * The windows of `bytes` a scan looks for: every `width`-byte slice at each `stride`, keeping only
 * those of at least four distinct byte values. A run of one value (an iris code's long runs, a zero
 * page) is in every database file and says nothing of the template.
 */
export function distinctWindows(name: string, bytes: Buffer, width: number, stride = 1): ByteForm[] {
  const windows: ByteForm[] = [];
  for (let at = 0; at + width <= bytes.length; at += stride) {
    const slice = bytes.subarray(at, at + width);
    if (new Set(slice).size >= 4) windows.push({ form: `${name} [${at}, ${at + width})`, bytes: Buffer.from(slice) });
  }
  return windows;
}
