import type { FastifyInstance } from 'fastify';
import { membersGuide } from './members.openapi.ts';
import { MembersQuery, MembersReply, type Static } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { admitWithoutEvaluation } from '../limits/admit-without-evaluation.ts';
import { badRequest } from '../problem.ts';
import { BucketReplyCache } from '../member-tree/bucket-reply-cache.ts';
import { bucketHexChars } from '../member-tree/member-tree.ts';
import { bucketMembers } from '../member-tree/bucket-members.ts';

/**
 * GET /members?bucket=<hex>: k-anonymous membership, after Have I Been Pwned's range API. The client
 * sends only the first hex characters of sha256(commitment); we answer every leaf in that bucket with
 * its Merkle proof. We learn the bucket, never which of its members is verifying. Without `bucket`,
 * the reply says how long a bucket prefix must be for the current group. A longer prefix than that
 * would shrink the anonymity set, so it is refused.
 */
export function membersRoute(app: FastifyInstance, { registry, limits }: RouteDeps) {
  const replies = new BucketReplyCache();
  // Typed by hand, not by the type provider: it sends a cached serialisation, a string the reply types refuse.
  app.get<{ Querystring: Static<typeof MembersQuery> }>(
    '/members',
    { ...guessLimited(limits), schema: { 'x-guide': membersGuide, querystring: MembersQuery, response: { 200: MembersReply } } },
    async (request, reply) => {
      await registry.catchUp();
      const size = registry.size;
      const chars = bucketHexChars(size);
      const base = { size, depth: registry.provingDepth, root: registry.root, bucketHexChars: chars };
      const { bucket } = request.query;
      if (bucket !== undefined && bucket.length !== chars) {
        throw badRequest('BUCKET_LENGTH', `The bucket must be exactly ${chars} hex characters for the current group.`);
      }
      await admitWithoutEvaluation(guessAdmitter(limits, guessClient(request)));
      if (bucket === undefined) return base;
      const body = replies.reply(registry.root, bucket, () => {
        const members = bucketMembers(registry, bucket).map(({ leaf, ...proof }) => ({ commitment: leaf, ...proof }));
        return reply.serialize({ ...base, bucket, members }) as string;
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
