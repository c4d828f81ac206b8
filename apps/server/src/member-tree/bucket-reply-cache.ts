/**
 * Serialised `GET /members?bucket=…` replies for the current root. A bucket's reply is the same for
 * everyone who asks until the tree moves, and building it is the costly part of the route (a
 * Merkle proof per member, then ~0.9 MB of JSON for a group of 1,000), so each is built once per
 * root. A new root empties the cache; the oldest replies go first past `maxBytes`.
 */
export class BucketReplyCache {
  private root = '';
  private bytes = 0;
  private readonly replies = new Map<string, string>();

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  /** The reply already built for `bucket` at `root`, if any (another root's cache is kept). */
  cached(root: string, bucket: string): string | undefined {
    return root === this.root ? this.replies.get(bucket) : undefined;
  }

  reply(root: string, bucket: string, build: () => string): string {
    if (root !== this.root) {
      this.replies.clear();
      this.bytes = 0;
      this.root = root;
    }
    const cached = this.replies.get(bucket);
    if (cached !== undefined) return cached;
    const built = build();
    this.replies.set(bucket, built);
    this.bytes += built.length;
    for (const [oldest, reply] of this.replies) {
      if (this.bytes <= this.maxBytes || oldest === bucket) break;
      this.replies.delete(oldest);
      this.bytes -= reply.length;
    }
    return built;
  }
}
