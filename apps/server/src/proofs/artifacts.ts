import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REGISTRATION_CREDENTIAL_SETUP, REGISTRATION_V3_SETUP, SIGN_IN_CREDENTIAL_SETUP } from '@zeroid/protocol/v3';
import checksums from './artifact-checksums.json' with { type: 'json' };

/** The v3 registration circuit's files that are served (decision 056); its r1cs and ptau stay in the repository. */
export const REGISTRATION_V3_FILES = ['registration-v3.wasm', 'registration-v3.zkey', 'registration-v3.vkey.json'] as const;

/** The credential registration circuit's files that are served (decision 085), under their own pins. */
export const REGISTRATION_CREDENTIAL_FILES = [
  'registration-credential.wasm',
  'registration-credential.zkey',
  'registration-credential.vkey.json',
] as const;

/**
 * The sign-in circuit's files that are served (decision 087): the device proves with the circuit and
 * proving key that its credential leaf is in the credential tree; the key verifies it. Own pins.
 */
export const SIGN_IN_CREDENTIAL_FILES = ['sign-in-credential.wasm', 'sign-in-credential.zkey', 'sign-in-credential.vkey.json'] as const;

export interface Artifact {
  name: string;
  /** Where it was read from (tests prove with it); what is served and verified against is `read()`'s bytes. */
  path: string;
  sha256: string;
  bytes: number;
  /** The file's bytes as they were when their SHA-256 was checked, read once and kept: never read again from disk. */
  read(): Promise<Buffer>;
}

/** The pins a load holds the v3 circuit's files to: by default the ones compiled into this build. */
export type RegistrationPins = { files: Readonly<Record<string, { readonly sha256: string; readonly bytes: number }>> };

/**
 * The Semaphore v4 ceremony artifacts (circuit wasm and proving key per tree depth), from the pinned
 * npm package, and the v3 registration circuit's (wasm, proving key, verification key) from
 * `circuits/artifacts/` (decisions 056, 072). Their SHA-256 values are pinned in code
 * (`artifact-checksums.json`, and `REGISTRATION_V3_SETUP`, which `npm run ceremony -- verify`
 * holds the whole setup to): if a file differs, the server refuses to start rather than hand a
 * browser a proving key nobody reviewed, or verify against one.
 *
 * What is served and verified comes from memory, never from disk after the check, so a file
 * replaced under a running server changes nothing: the v3 files and every verification key are read
 * once at start, and the bytes hashed are the bytes kept. Semaphore's circuits and proving keys
 * (96 files, 171 MB, most never asked for) are hashed at start and read into memory on first
 * request, checked against their pin again, and kept; one that no longer matches is never served.
 */
export class Artifacts {
  private constructor(
    readonly directory: string,
    private readonly byName: Map<string, Artifact>,
  ) {}

  /**
   * `circuits`: where our circuits' files are; `pins`, `credentialPins`, `signInPins`: what the v3,
   * the credential registration and the sign-in credential circuit's files must be (a test gives
   * another build's).
   */
  static async load(
    circuits = circuitArtifactsDirectory(),
    pins: RegistrationPins = REGISTRATION_V3_SETUP,
    credentialPins: RegistrationPins = REGISTRATION_CREDENTIAL_SETUP,
    signInPins: RegistrationPins = SIGN_IN_CREDENTIAL_SETUP,
  ): Promise<Artifacts> {
    const require = createRequire(import.meta.url);
    const directory = path.dirname(require.resolve(`${checksums.package}/package.json`));
    const installed = (require(`${checksums.package}/package.json`) as { version: string }).version;
    if (installed !== checksums.version) {
      throw new Error(`${checksums.package} ${installed} is installed, but checksums were recorded for ${checksums.version}`);
    }
    const expected = [
      ...Object.entries(checksums.files).map(([name, sums]) => ({
        name,
        file: path.join(directory, name),
        ...sums,
        setup: false,
        circuit: '',
        constant: '',
      })),
      ...setupFiles(REGISTRATION_V3_FILES, pins, 'v3 registration', 'REGISTRATION_V3_SETUP', circuits),
      ...setupFiles(REGISTRATION_CREDENTIAL_FILES, credentialPins, 'credential registration', 'REGISTRATION_CREDENTIAL_SETUP', circuits),
      ...setupFiles(SIGN_IN_CREDENTIAL_FILES, signInPins, 'sign-in credential', 'SIGN_IN_CREDENTIAL_SETUP', circuits),
    ];
    const byName = new Map<string, Artifact>();
    await Promise.all(
      expected.map(async ({ name, file, sha256, bytes, setup, circuit, constant }) => {
        // Kept ones are read whole (the bytes hashed are the bytes kept); the others streamed, not all held at once.
        const eager = setup || name.endsWith('.json');
        const kept = eager ? await readFile(file).catch(unreadable(name, file)) : undefined;
        const actual = kept ? sha256Of(kept) : await sha256File(file).catch(unreadable(name, file));
        if (actual !== sha256) {
          throw new Error(
            setup
              ? `The ${circuit} setup's ${name} has SHA-256 ${actual}, but this build pins ${sha256} (${constant}): ` +
                  `refusing to start on a setup that is not the one \`npm run ceremony -- verify\` checked. Restore ${file} from this release.`
              : `Artifact ${name} has SHA-256 ${actual}, expected ${sha256}`,
          );
        }
        byName.set(name, { name, path: file, sha256, bytes, read: kept ? () => Promise.resolve(kept) : readOnce(name, file, sha256) });
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

/** A circuit's served files with the SHA-256 its pins give each; a file with no pin stops the start. */
function setupFiles(names: readonly string[], pins: RegistrationPins, circuit: string, constant: string, directory: string) {
  return names.map((name) => {
    const sums = pins.files[name];
    if (!sums) throw new Error(`This build pins no SHA-256 for ${name} (${constant}): run the ceremony's commands, which pin it`);
    return { name, file: path.join(directory, name), ...sums, setup: true, circuit, constant };
  });
}

/** Reads a file on first call, checks it against its pin and keeps the bytes; a mismatch is refused every time, never served. */
function readOnce(name: string, file: string, sha256: string): () => Promise<Buffer> {
  let kept: Promise<Buffer> | undefined;
  return () =>
    (kept ??= readFile(file).then((bytes) => {
      const actual = sha256Of(bytes);
      if (actual !== sha256) {
        kept = undefined;
        throw new Error(`Artifact ${name} changed on disk since the start (SHA-256 ${actual}, expected ${sha256}): not served`);
      }
      return bytes;
    }));
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const unreadable = (name: string, file: string) => (error: NodeJS.ErrnoException) => {
  throw new Error(`Artifact ${name} cannot be read (${error.code ?? error.message}) from ${file}`);
};

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/**
 * `circuits/artifacts/` of this checkout: the first ancestor of this file that holds it, which finds
 * it from the sources (`src/proofs/`) and from the compiled bundle (`dist/`) alike.
 */
export function circuitArtifactsDirectory(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'circuits', 'artifacts');
    if (existsSync(path.join(candidate, 'registration-v3.zkey'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error('circuits/artifacts/ not found above the server');
  }
}
