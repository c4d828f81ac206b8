import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import checksums from './artifact-checksums.json' with { type: 'json' };

/** The v3 registration circuit's files that are served (decision 056); its r1cs and ptau stay in the repository. */
export const REGISTRATION_V3_FILES = ['registration-v3.wasm', 'registration-v3.zkey', 'registration-v3.vkey.json'] as const;

export interface Artifact {
  name: string;
  path: string;
  sha256: string;
  bytes: number;
}

/**
 * The Semaphore v4 ceremony artifacts (circuit wasm and proving key per tree depth), from the pinned
 * npm package, and the v3 registration circuit's (wasm, proving key, verification key) from
 * `circuits/artifacts/` (decision 056). Their SHA-256 values are checked into this repository
 * (`artifact-checksums.json`, `circuits/artifacts/checksums.json`): if a file differs, the server
 * refuses to start rather than hand a browser a proving key nobody reviewed, or verify against one.
 */
export class Artifacts {
  private constructor(
    readonly directory: string,
    private readonly byName: Map<string, Artifact>,
  ) {}

  /** `circuits`: where the v3 registration circuit's files and `checksums.json` are (a test points it at a tampered copy). */
  static async load(circuits = circuitArtifactsDirectory()): Promise<Artifacts> {
    const require = createRequire(import.meta.url);
    const directory = path.dirname(require.resolve(`${checksums.package}/package.json`));
    const installed = (require(`${checksums.package}/package.json`) as { version: string }).version;
    if (installed !== checksums.version) {
      throw new Error(`${checksums.package} ${installed} is installed, but checksums were recorded for ${checksums.version}`);
    }
    const circuitChecksums = JSON.parse(readFileSync(path.join(circuits, 'checksums.json'), 'utf8')) as typeof checksums;
    const expected = [
      ...Object.entries(checksums.files).map(([name, sums]) => ({ name, file: path.join(directory, name), ...sums })),
      ...REGISTRATION_V3_FILES.map((name) => {
        const sums = circuitChecksums.files[name as keyof typeof circuitChecksums.files];
        if (!sums) throw new Error(`circuits/artifacts/checksums.json records no SHA-256 for ${name}`);
        return { name, file: path.join(circuits, name), ...sums };
      }),
    ];
    const byName = new Map<string, Artifact>();
    await Promise.all(
      expected.map(async ({ name, file, sha256, bytes }) => {
        const actual = await sha256File(file);
        if (actual !== sha256) throw new Error(`Artifact ${name} has SHA-256 ${actual}, expected ${sha256}`);
        byName.set(name, { name, path: file, sha256, bytes });
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

/**
 * `circuits/artifacts/` of this checkout: the first ancestor of this file that holds it, which finds
 * it from the sources (`src/proofs/`) and from the compiled bundle (`dist/`) alike.
 */
function circuitArtifactsDirectory(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'circuits', 'artifacts');
    if (existsSync(path.join(candidate, 'checksums.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error('circuits/artifacts/checksums.json not found above the server');
  }
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
