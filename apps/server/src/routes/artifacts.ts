import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import { manifestGuide, artifactGuide } from './artifacts.openapi.ts';
import { Type } from '@sinclair/typebox';
import { ArtifactManifestReply, ErrorReply } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { replyProblem } from '../http/reply-problem.ts';
import { Problem } from '../problem.ts';
import { createArtifactEncodings, type ArtifactEncoding } from '../proofs/artifact-encodings.ts';

/** Files smaller than this (the verification keys, 4 KB) are not worth a compressed copy. */
const COMPRESS_FROM_BYTES = 64 * 1024;
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
const notFound = new Problem(404, 'NOT_FOUND', 'No such proving artifact.');
const changed = new Problem(503, 'ARTIFACT_UNAVAILABLE', 'This proving artifact is not available from this instance.');

const Params = Type.Object({ name: Type.String({ maxLength: 40 }) }, { additionalProperties: false });
const Query = Type.Object(
  {
    sha256: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: "The file's SHA-256 from GET /artifacts: the reply may then be kept for good.",
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * GET /artifacts and GET /artifacts/semaphore-<depth>.(wasm|zkey|json) or
 * (registration-(v3|credential)|sign-in-credential).(wasm|zkey|vkey.json): the pinned proving artifacts
 * and verification keys, Semaphore's and our circuits' (decisions 056, 085, 087), served by us so the browser fetches nothing from another host (decision 043).
 * - The manifest names each file's SHA-256 and size; asked for with `?sha256=` the file is immutable
 *   (a new release is a new URL), without it the browser revalidates by ETag.
 * - The circuit and proving key go brotli- or gzip-compressed as Accept-Encoding allows (fewer bytes:
 *   docs/benchmarks.md, "Artifact compression"); the SHA-256 stays the one of the uncompressed file, which is what the browser checks.
 * - Every body comes from the bytes checked against the pins (`Artifact.read`), never from disk at
 *   request time: the ETag and x-content-sha256 always name what is sent (decision 072).
 */
export function artifactRoutes(app: FastifyInstance, { artifacts, config }: RouteDeps) {
  const encodings = createArtifactEncodings({ cacheDir: path.join(config.dataDir, 'artifact-cache') });
  const manifest: ArtifactManifestReply = {
    package: artifacts.package,
    version: artifacts.version,
    files: Object.fromEntries(artifacts.list().map((a) => [a.name, { sha256: a.sha256, bytes: a.bytes }])),
  };

  app.get('/artifacts', { schema: { 'x-guide': manifestGuide, response: { 200: ArtifactManifestReply } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, no-cache');
    return manifest;
  });

  // Typed by hand, not by the type provider: it sends files and a 304, which the reply types refuse.
  app.get<{ Params: typeof Params.static; Querystring: typeof Query.static }>(
    '/artifacts/:name',
    { schema: { 'x-guide': artifactGuide, params: Params, querystring: Query, response: { 404: ErrorReply, 503: ErrorReply } } },
    async (request, reply) => {
      const artifact = artifacts.get(request.params.name);
      const { sha256 } = request.query;
      if (!artifact || (sha256 !== undefined && sha256 !== artifact.sha256)) return replyProblem(reply, notFound);

      const wanted =
        artifact.bytes >= COMPRESS_FROM_BYTES
          ? (negotiate(request.headers['accept-encoding'] ?? '', [...ENCODINGS]) ?? 'identity')
          : 'identity';
      const encoded = wanted === 'identity' ? undefined : encodings.get(artifact, wanted);
      // One ETag per representation: a cache must never answer a gzip request with brotli bytes.
      const etag = `"${artifact.sha256}${encoded ? `-${encoded.encoding}` : ''}"`;
      reply
        .header('cache-control', sha256 ? 'public, max-age=31536000, immutable' : 'public, no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', etag)
        .header('x-content-sha256', artifact.sha256);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply.type(contentType(artifact.name));
      if (encoded) {
        reply.header('content-encoding', encoded.encoding satisfies ArtifactEncoding).header('content-length', encoded.length);
        return reply.send(encoded.bytes);
      }
      let body: Buffer;
      try {
        body = await artifact.read();
      } catch (error) {
        // A Semaphore file replaced on disk before its first request: never sent (the error names the file and hashes, no user data).
        request.log.error({ artifact: artifact.name }, error instanceof Error ? error.message : String(error));
        return replyProblem(reply.removeHeader('etag').removeHeader('x-content-sha256').removeHeader('cache-control'), changed);
      }
      return reply.header('content-length', body.length).send(body);
    },
  );
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return (ifNoneMatch ?? '').split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function contentType(name: string): string {
  if (name.endsWith('.wasm')) return 'application/wasm';
  if (name.endsWith('.json')) return 'application/json';
  return 'application/octet-stream';
}
