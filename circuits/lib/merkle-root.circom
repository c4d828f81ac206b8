pragma circom 2.1.0;

// The root of a binary Poseidon Merkle tree of fixed depth from one leaf and its path: at each level
// the node is Poseidon(left, right), the current node on the left when that level's path bit is 0.
// Each bit is constrained to 0 or 1, so a path names one position; one multiplication per level swaps.

include "circomlib/circuits/poseidon.circom";

template MerkleRoot(DEPTH) {
    signal input leaf;
    signal input pathBits[DEPTH];
    signal input siblings[DEPTH];
    signal output root;

    signal nodes[DEPTH + 1];
    signal swap[DEPTH];
    component hashes[DEPTH];
    nodes[0] <== leaf;
    for (var i = 0; i < DEPTH; i++) {
        pathBits[i] * (1 - pathBits[i]) === 0;
        swap[i] <== pathBits[i] * (siblings[i] - nodes[i]);
        hashes[i] = Poseidon(2);
        hashes[i].inputs <== [nodes[i] + swap[i], siblings[i] - swap[i]];
        nodes[i + 1] <== hashes[i].out;
    }
    root <== nodes[DEPTH];
}
