import { poseidon2 } from 'poseidon-lite/poseidon2';
import type { AffinePoint } from '../v3/baby-jubjub-group.ts';

/** Depth of the trusted issuers' tree in `circuits/registration-credential.circom`: 32 issuers at most. */
export const ISSUER_TREE_DEPTH = 5;

/** An issuer's place in the tree: the path bits (0 = the node is the left child) and the siblings, leaf first. */
export interface IssuerPath {
  pathBits: number[];
  siblings: bigint[];
}

/** The trusted issuers' tree: its root, public in every credential proof, and each issuer's path. */
export interface IssuerTree {
  root: bigint;
  /** The path of the issuer at `index` in the list the tree was built from. */
  pathOf(index: number): IssuerPath;
}

/** An issuer's leaf: Poseidon(A.x, A.y). */
export const issuerLeaf = (issuer: AffinePoint): bigint => poseidon2([issuer.x, issuer.y]);

/**
 * The Merkle tree of the trusted issuers (decision 085): leaves Poseidon(A.x, A.y) in the order given,
 * the rest 0, each node Poseidon(left, right), depth `ISSUER_TREE_DEPTH`. The registrar builds it from
 * `TRUSTED_ISSUERS` and the client from `GET /issuers`, in the same order, so both find the same root;
 * a credential proof shows its issuer is one of these leaves without saying which.
 * @throws RangeError beyond 2^ISSUER_TREE_DEPTH issuers.
 */
export function issuerTree(issuers: readonly AffinePoint[]): IssuerTree {
  const size = 2 ** ISSUER_TREE_DEPTH;
  if (issuers.length > size) throw new RangeError(`At most ${size} trusted issuers fit the credential proof's tree`);
  const levels: bigint[][] = [Array.from({ length: size }, (_, i) => (i < issuers.length ? issuerLeaf(issuers[i]!) : 0n))];
  for (let depth = 0; depth < ISSUER_TREE_DEPTH; depth++) {
    const below = levels[depth]!;
    levels.push(Array.from({ length: below.length / 2 }, (_, i) => poseidon2([below[2 * i]!, below[2 * i + 1]!])));
  }
  return {
    root: levels[ISSUER_TREE_DEPTH]![0]!,
    pathOf(index: number): IssuerPath {
      if (!Number.isInteger(index) || index < 0 || index >= issuers.length) throw new RangeError('No issuer at this index');
      const pathBits: number[] = [];
      const siblings: bigint[] = [];
      for (let depth = 0, at = index; depth < ISSUER_TREE_DEPTH; depth++, at >>= 1) {
        pathBits.push(at & 1);
        siblings.push(levels[depth]![at ^ 1]!);
      }
      return { pathBits, siblings };
    },
  };
}
