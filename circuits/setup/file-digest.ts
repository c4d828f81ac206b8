import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The hex digest of a file (`sha256`, or `blake2b512` as the public powers-of-tau ceremonies publish), read as a stream. */
export function fileDigest(file: string, algorithm: 'sha256' | 'blake2b512' = 'sha256'): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash(algorithm);
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
