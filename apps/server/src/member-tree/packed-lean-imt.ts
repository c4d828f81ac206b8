import { leanImtHash } from './lean-imt-nodes.ts';

/** Bytes of one node: a BN254 field element, big-endian. */
export const NODE_BYTES = 32;

/** Level lengths of a LeanIMT of `size` leaves: size, ⌈size/2⌉, … 1 (none for an empty tree). */
export function levelLengths(size: number): number[] {
  if (size === 0) return [];
  const lengths: number[] = [];
  for (let length = size; ; length = Math.ceil(length / 2)) {
    lengths.push(length);
    if (length <= 1) return lengths;
  }
}

/** Room for a level of `length` nodes and some growth, so appending rarely copies a level. */
const capacityFor = (length: number) => length + Math.max(1024, length >> 3);

/**
 * A LeanIMT (Semaphore v4's Merkle tree: a parent is Poseidon(left, right), or its left child alone
 * when it has no right one) with every node packed as 32 bytes in one Buffer a level, instead of
 * LeanIMT's arrays of bigints. A bigint of 254 bits costs about 60 bytes of heap and a pointer; at
 * ten million members the library's 20 million nodes would take over 1.2 GB and a garbage
 * collector walking them, where these buffers take 640 MB outside the JavaScript heap (decision 025).
 * Nodes become bigints only while they are hashed or read. The same nodes and roots as
 * `@semaphore-protocol/group` (the tests compare them), and a leaf can be replaced in place.
 */
export class PackedLeanIMT {
  private levels: Buffer[] = [];
  private lengths: number[] = [];
  /** How many leaves were replaced in place so far: a checkpoint being written must see none. */
  updates = 0;

  get size(): number {
    return this.lengths[0] ?? 0;
  }

  /** Number of levels above the leaves: the LeanIMT's depth. */
  get depth(): number {
    return Math.max(0, this.lengths.length - 1);
  }

  /** The root, or 0n for an empty tree. */
  get root(): bigint {
    const top = this.lengths.length - 1;
    return top < 0 ? 0n : this.node(top, 0)!;
  }

  /** The node at `index` of `level` (0 = leaves), or undefined past its end. */
  node(level: number, index: number): bigint | undefined {
    if (index < 0 || index >= (this.lengths[level] ?? 0)) return undefined;
    const at = index * NODE_BYTES;
    return BigInt(`0x${this.levels[level]!.toString('hex', at, at + NODE_BYTES)}`);
  }

  leaf(index: number): bigint | undefined {
    return this.node(0, index);
  }

  /** Appends leaves and rehashes only the new right edge, as `LeanIMT.insertMany` would. */
  append(leaves: readonly bigint[]): void {
    if (leaves.length === 0) return;
    // A 0 leaf is a member erased before this tree read it (decision 022), as `update` would have left it.
    const first = this.size;
    const lengths = levelLengths(first + leaves.length);
    this.resize(lengths);
    leaves.forEach((leaf, i) => this.write(0, first + i, leaf));
    let start = first >> 1;
    for (let level = 1; level < lengths.length; level += 1) {
      for (let index = start; index < lengths[level]!; index += 1) this.rehash(level, index);
      start >>= 1;
    }
  }

  /** Replaces the leaf at `index` (erasure writes a zero leaf) and rehashes its path to the root. */
  update(index: number, leaf: bigint): void {
    if (index < 0 || index >= this.size) throw new RangeError(`No leaf at index ${index}`);
    this.updates += 1;
    this.write(0, index, leaf);
    for (let level = 1, position = index >> 1; level < this.lengths.length; level += 1, position >>= 1) this.rehash(level, position);
  }

  /**
   * The LeanIMT Merkle proof of one leaf, as `Group.generateMerkleProof` computes it, in O(depth): a
   * missing sibling means the parent equals the node, so it adds no hash and no bit to the path.
   */
  merkleProof(index: number): { root: bigint; leaf: bigint; index: number; siblings: bigint[] } {
    const leaf = this.leaf(index);
    if (leaf === undefined) throw new RangeError(`No leaf at index ${index}`);
    const siblings: bigint[] = [];
    let path = 0;
    let position = index;
    for (let level = 0; level < this.lengths.length - 1; level += 1) {
      const isRight = position & 1;
      const sibling = this.node(level, isRight ? position - 1 : position + 1);
      if (sibling !== undefined) {
        path += isRight * 2 ** siblings.length;
        siblings.push(sibling);
      }
      position >>= 1;
    }
    return { root: this.root, leaf, index: path, siblings };
  }

  /** The bytes of each level in use (views, not copies), leaves first: what a checkpoint stores. */
  levelBytes(): Buffer[] {
    return this.levels.map((level, i) => level.subarray(0, this.lengths[i]! * NODE_BYTES));
  }

  /**
   * An empty tree of `size` leaves whose levels the caller fills through the returned views (a
   * checkpoint being read), without hashing. Check its root before trusting it.
   */
  static allocate(size: number): { tree: PackedLeanIMT; levels: Buffer[] } {
    const tree = new PackedLeanIMT();
    tree.resize(levelLengths(size));
    return { tree, levels: tree.levelBytes() };
  }

  /** Grows the levels to these lengths, copying a level only when it runs out of room. */
  private resize(lengths: number[]): void {
    lengths.forEach((length, level) => {
      const current = this.levels[level];
      if (!current || current.length < length * NODE_BYTES) {
        // allocUnsafe: every byte up to `length` is written before it is read.
        const grown = Buffer.allocUnsafe(capacityFor(length) * NODE_BYTES);
        current?.copy(grown, 0, 0, (this.lengths[level] ?? 0) * NODE_BYTES);
        this.levels[level] = grown;
      }
    });
    this.lengths = lengths;
  }

  private write(level: number, index: number, value: bigint): void {
    this.levels[level]!.write(value.toString(16).padStart(NODE_BYTES * 2, '0'), index * NODE_BYTES, 'hex');
  }

  private rehash(level: number, index: number): void {
    const left = this.node(level - 1, index * 2)!;
    const right = this.node(level - 1, index * 2 + 1);
    if (right === undefined) {
      const at = index * 2 * NODE_BYTES;
      this.levels[level - 1]!.copy(this.levels[level]!, index * NODE_BYTES, at, at + NODE_BYTES);
    } else {
      this.write(level, index, leanImtHash(left, right));
    }
  }
}
