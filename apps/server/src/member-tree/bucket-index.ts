/** Buckets are indexed by this many hex characters (16 bits); requests may ask for fewer. */
export const INDEXED_BUCKET_CHARS = 4;
const BUCKETS = 16 ** INDEXED_BUCKET_CHARS;

/**
 * Which leaves fall in each /members bucket, in typed arrays instead of a Map of 65,536 JavaScript
 * arrays: each leaf's 16-bit bucket (2 bytes a member, also what a checkpoint stores, so start-up
 * need not hash ten million commitments again), and a counting sort of the leaves by bucket, built
 * once. Leaves added after it wait in small per-bucket lists until they are a sixteenth of the
 * whole, when the sort is rebuilt.
 */
export class BucketIndex {
  private buckets = new Uint16Array(1024);
  private count = 0;
  private sortedCount = 0;
  private starts = new Uint32Array(BUCKETS + 1);
  private sorted = new Uint32Array(0);
  private readonly recent = new Map<number, number[]>();

  get size(): number {
    return this.count;
  }

  /** The bucket of every leaf, in leaf order (a view, not a copy). */
  bucketBytes(): Uint16Array {
    return this.buckets.subarray(0, this.count);
  }

  /** Files the next leaf under `bucket` (0 … 65,535). */
  push(bucket: number): void {
    if (this.count === this.buckets.length) {
      const grown = new Uint16Array(this.buckets.length * 2);
      grown.set(this.buckets);
      this.buckets = grown;
    }
    this.buckets[this.count] = bucket;
    const list = this.recent.get(bucket);
    if (list) list.push(this.count);
    else this.recent.set(bucket, [this.count]);
    this.count += 1;
    if (this.count - this.sortedCount > Math.max(1024, this.sortedCount >> 4)) this.sort();
  }

  /** Takes every leaf's bucket at once (a checkpoint being loaded), replacing what was there. */
  load(buckets: Uint16Array): void {
    this.buckets = new Uint16Array(Math.max(1024, buckets.length + (buckets.length >> 3)));
    this.buckets.set(buckets);
    this.count = buckets.length;
    this.sort();
  }

  /** Leaf indexes, ascending, whose bucket starts with these hex characters (at most four). */
  leavesWithPrefix(prefix: string): number[] {
    const shift = 4 * (INDEXED_BUCKET_CHARS - prefix.length);
    const first = prefix.length === 0 ? 0 : Number.parseInt(prefix, 16) << shift;
    const end = prefix.length === 0 ? BUCKETS : first + (1 << shift);
    const leaves = Array.from(this.sorted.subarray(this.starts[first], this.starts[end]));
    for (const [bucket, indexes] of this.recent) if (bucket >= first && bucket < end) leaves.push(...indexes);
    return leaves.sort((a, b) => a - b);
  }

  private sort(): void {
    const starts = new Uint32Array(BUCKETS + 1);
    for (let i = 0; i < this.count; i += 1) starts[this.buckets[i]! + 1]! += 1;
    for (let b = 0; b < BUCKETS; b += 1) starts[b + 1]! += starts[b]!;
    const next = starts.slice(0, BUCKETS);
    const sorted = new Uint32Array(this.count);
    for (let i = 0; i < this.count; i += 1) sorted[next[this.buckets[i]!]!++] = i;
    this.starts = starts;
    this.sorted = sorted;
    this.sortedCount = this.count;
    this.recent.clear();
  }
}
