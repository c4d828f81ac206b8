import type { FastifyInstance } from 'fastify';
import { credentialMembersGuide } from './credential-members.openapi.ts';
import { CredentialMembersReply, MembersQuery, type Static } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { admitWithoutEvaluation } from '../limits/admit-without-evaluation.ts';
import { badRequest } from '../problem.ts';
import { BucketReplyCache } from '../member-tree/bucket-reply-cache.ts';
import { bucketHexChars } from '../member-tree/member-tree.ts';

/**
 * GET /credential-members?bucket=<hex> (decision 088): the credential tree, bucketed by the member
 * tree. The bucket is the one a device asks GET /members for (sha256 of its decimal commitment, the
 * member tree's length rule); the reply is every credential leaf whose identity's commitment is in
 * it, with its credential-tree Merkle proof, and never the commitments. A device asks for its own
 * bucket once, computes its leaf for each trusted issuer and finds it there: the server learns the
 * bucket /members told it, never which leaf, whose, or which issuer. A bucket asked per issuer's leaf
 * would have given the server a set of buckets stable and nearly unique to a person. Guess-limited as
 * /members, and each reply built once per pair of roots.
 */
export function credentialMembersRoute(app: FastifyInstance, { registry, credentialRegistry: tree, limits, useCases }: RouteDeps) {
  const replies = new BucketReplyCache();
  // Typed by hand, not by the type provider: it sends a cached serialisation, a string the reply types refuse.
  app.get<{ Querystring: Static<typeof MembersQuery> }>(
    '/credential-members',
    {
      ...guessLimited(limits),
      schema: { 'x-guide': credentialMembersGuide, querystring: MembersQuery, response: { 200: CredentialMembersReply } },
    },
    async (request, reply) => {
      await Promise.all([registry.catchUp(), tree.catchUp()]);
      const chars = bucketHexChars(registry.size);
      const { bucket } = request.query;
      if (bucket !== undefined && bucket.length !== chars) {
        throw badRequest('BUCKET_LENGTH', `The bucket must be exactly ${chars} hex characters for the current group.`);
      }
      await admitWithoutEvaluation(guessAdmitter(limits, guessClient(request)));
      if (bucket === undefined) return { size: tree.size, depth: tree.provingDepth, root: tree.root, bucketHexChars: chars };
      let body = replies.cached(`${registry.root} ${tree.root}`, bucket);
      if (body === undefined) {
        const { roots, settled, reply: built } = await useCases.credentialBucket(bucket);
        // A tree that moved while the owners were read may have filed a leaf the read missed: not kept.
        body = settled ? replies.reply(roots, bucket, () => reply.serialize(built) as string) : (reply.serialize(built) as string);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
