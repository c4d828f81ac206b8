import { Type, type Static } from '@sinclair/typebox';

/** One proving artifact as the server holds it: the SHA-256 and size of its uncompressed bytes. */
export const ArtifactEntry = Type.Object(
  {
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    bytes: Type.Integer({ minimum: 0, description: 'Size of the uncompressed file.' }),
  },
  { additionalProperties: false },
);

/**
 * GET /artifacts: every pinned proving artifact and verification key, by file name. A client asks for
 * `/artifacts/<name>?sha256=<sha256>`: with the checksum in the URL the reply can be kept for good, a
 * new release changes the URL, and the client checks the bytes it received against the same value.
 * `package` and `version` name the Semaphore artifacts' release; the v3 registration circuit's files
 * (`registration-v3.wasm`, `.zkey`, `.vkey.json`, decision 056) come from this repository's
 * `circuits/artifacts/`, pinned in code by `REGISTRATION_V3_SETUP` (decision 072), and so do the
 * credential circuits' (`registration-credential.*`, decision 085; `sign-in-credential.*`, decision 087),
 * under their own pins.
 */
export const ArtifactManifestReply = Type.Object(
  {
    package: Type.String({ examples: ['@zk-kit/semaphore-artifacts'] }),
    version: Type.String({ examples: ['4.13.0'] }),
    files: Type.Record(
      Type.String({
        pattern: '^(semaphore-[0-9]{1,2}\\.(wasm|zkey|json)|(registration-(v3|credential)|sign-in-credential)\\.(wasm|zkey|vkey\\.json))$',
      }),
      ArtifactEntry,
    ),
  },
  { additionalProperties: false },
);

export type ArtifactEntry = Static<typeof ArtifactEntry>;
export type ArtifactManifestReply = Static<typeof ArtifactManifestReply>;
