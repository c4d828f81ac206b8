import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import checksums from './artifact-checksums.json' with { type: 'json' };

export interface Artifact {
  name: string;
  path: string;
  sha256: string;
  bytes: number;
}

/**
 * The Semaphore v4 ceremony artifacts (circuit wasm and proving key per tree depth), from the pinned
 * npm package. Their SHA-256 values are checked into this repository: if the installed files differ,
 * the server refuses to start rather than hand a browser a proving key nobody reviewed.
 */
export class Artifacts {
  private constructor(
    readonly directory: string,
    private readonly byName: Map<string, Artifact>,
  ) {}

  static async load(): Promise<Artifacts> {
    const require = createRequire(import.meta.url);
    const directory = path.dirname(require.resolve(`${checksums.package}/package.json`));
    const installed = (require(`${checksums.package}/package.json`) as { version: string }).version;
    if (installed !== checksums.version) {
      throw new Error(`${checksums.package} ${installed} is installed, but checksums were recorded for ${checksums.version}`);
    }
    const byName = new Map<string, Artifact>();
    await Promise.all(
      Object.entries(checksums.files).map(async ([name, expected]) => {
        const file = path.join(directory, name);
        const actual = await sha256File(file);
        if (actual !== expected.sha256) throw new Error(`Artifact ${name} has SHA-256 ${actual}, expected ${expected.sha256}`);
        byName.set(name, { name, path: file, sha256: expected.sha256, bytes: expected.bytes });
      }),
    );
    return new Artifacts(directory, byName);
  }

  get(name: string): Artifact | undefined {
    return this.byName.get(name);
  }

  /** Every artifact, for the manifest (GET /artifacts). */
  list(): Artifact[] {
    return [...this.byName.values()];
  }

  readonly package = checksums.package;
  readonly version = checksums.version;
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
