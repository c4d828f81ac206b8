import type { FastifyInstance } from 'fastify';
import { credentialMembersGuide } from './credential-members.openapi.ts';
import { CredentialMembersReply, MembersQuery, type Static } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { admitWithoutEvaluation } from '../limits/admit-without-evaluation.ts';
import { badRequest } from '../problem.ts';
import { BucketReplyCache } from '../member-tree/bucket-reply-cache.ts';
import { bucketMembers } from '../member-tree/bucket-members.ts';
import { bucketHexChars } from '../member-tree/member-tree.ts';

/**
 * GET /credential-members?bucket=<hex> (decision 088): the credential tree's k-anonymous buckets, as
 * GET /members gives the member tree's. A device computes its credential leaf for each trusted issuer,
 * asks for the bucket of sha256 of each, and proves membership of the one it finds; the server learns
 * the buckets, never which leaf, whose, or which issuer. Guess-limited as /members: a bucket holding a
 * leaf answers "this leaf is registered", which is a guess for whoever can compute leaves.
 */
export function credentialMembersRoute(app: FastifyInstance, { credentialRegistry: tree, limits }: RouteDeps) {
  const replies = new BucketReplyCache();
  // Typed by hand, not by the type provider: it sends a cached serialisation, a string the reply types refuse.
  app.get<{ Querystring: Static<typeof MembersQuery> }>(
    '/credential-members',
    {
      ...guessLimited(limits),
      schema: { 'x-guide': credentialMembersGuide, querystring: MembersQuery, response: { 200: CredentialMembersReply } },
    },
    async (request, reply) => {
      await tree.catchUp();
      const size = tree.size;
      const chars = bucketHexChars(size);
      const base = { size, depth: tree.provingDepth, root: tree.root, bucketHexChars: chars };
      const { bucket } = request.query;
      if (bucket !== undefined && bucket.length !== chars) {
        throw badRequest('BUCKET_LENGTH', `The bucket must be exactly ${chars} hex characters for the current credential tree.`);
      }
      await admitWithoutEvaluation(guessAdmitter(limits, guessClient(request)));
      if (bucket === undefined) return base;
      const body = replies.reply(
        tree.root,
        bucket,
        () => reply.serialize({ ...base, bucket, members: bucketMembers(tree, bucket) }) as string,
      );
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
