import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One thing a file must not hold, in one encoding: its name, and its bytes (8 or more). */
export interface ByteForm {
  form: string;
  bytes: Buffer;
}

/**
 * Which files under `dir` (recursively) hold any of `forms`: "file: form" lines, sorted. One pass a
 * file: each offset's first 4 bytes are looked up among the forms' first 4, and only a hit compares
 * the rest, so thousands of forms cost one read of a PostgreSQL data directory, WAL included.
 */
export function findByteWindows(dir: string, forms: readonly ByteForm[]): string[] {
  const byPrefix = new Map<number, ByteForm[]>();
  for (const form of forms) {
    if (form.bytes.length < 8) throw new RangeError(`${form.form}: a form of fewer than 8 bytes would match by chance`);
    const prefix = form.bytes.readUInt32LE(0);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), form]);
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
        for (let i = 0; i + 8 <= content.length; i++) {
          const candidates = byPrefix.get(content.readUInt32LE(i));
          if (!candidates) continue;
          for (const { form, bytes } of candidates)
            if (i + bytes.length <= content.length && content.compare(bytes, 0, bytes.length, i, i + bytes.length) === 0)
              found.add(`${path.relative(dir, file)}: ${form}`);
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
