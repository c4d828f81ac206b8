pragma circom 2.1.5;

// The sign-in proof that a site's person holds a credential of one issuer (decision 087, designed in
// 079): the credential leaf L = Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret), which a registration
// with a credential of issuer A adds to the credential tree, is a leaf of the LeanIMT whose root is
// merkleRoot, and nullifier = Poseidon(scope, secret) is Semaphore v4's nullifier, so it equals the
// nullifier of the ordinary sign-in proof of the same person for the same scope. It shows the issuer A
// (public) and hides the secret, the leaf and where it is in the tree.
// Public signals, in snarkjs's order: merkleRoot, nullifier (outputs), issuer[0], issuer[1], scope,
// message. scope and message are the field values Semaphore's proof sees (its hash of the sign-in's).

include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/poseidon.circom";
include "@zk-kit/binary-merkle-root.circom/src/binary-merkle-root.circom";

template SignInCredential(MAX_DEPTH) {
    signal input secret;
    signal input merkleProofLength;
    signal input merkleProofIndex;
    signal input merkleProofSiblings[MAX_DEPTH];
    signal input issuer[2];
    signal input scope;
    signal input message;
    signal output merkleRoot;
    signal output nullifier;

    // "zeroid/credential-leaf/v1" read as a big-endian integer, as the labels of registration-slots.
    var CREDENTIAL_LEAF_DS = 768293885226003153231021317016570757166115235676190814467633;

    // The secret is below Baby Jubjub's subgroup order l, as Semaphore v4 requires. Semaphore's
    // LessThan(251) alone holds only for inputs below 2^251 (a secret near the field's modulus wraps
    // and passes), so the secret is first shown to fit 251 bits.
    var l = 2736030358979909402780800718157159386076813972158567259200215660948447373041;
    component secretBits = Num2Bits(251);
    secretBits.in <== secret;
    component secretBelowL = LessThan(251);
    secretBelowL.in <== [secret, l];
    secretBelowL.out === 1;

    component leaf = Poseidon(4);
    leaf.inputs <== [CREDENTIAL_LEAF_DS, issuer[0], issuer[1], secret];

    // BinaryMerkleRoot gives 0 for a length above MAX_DEPTH, a root no tree has but a verifier
    // might be handed (an empty tree's): the length is held to 0..MAX_DEPTH here.
    component lengthBits = Num2Bits(5);
    lengthBits.in <== merkleProofLength;
    component lengthFits = LessEqThan(5);
    lengthFits.in <== [merkleProofLength, MAX_DEPTH];
    lengthFits.out === 1;

    // The LeanIMT root of a proof of variable length (Semaphore v4's own template and library).
    merkleRoot <== BinaryMerkleRoot(MAX_DEPTH)(leaf.out, merkleProofLength, merkleProofIndex, merkleProofSiblings);

    component nullifierHash = Poseidon(2);
    nullifierHash.inputs <== [scope, secret];
    nullifier <== nullifierHash.out;

    // The message is in no other constraint: its square binds it, as Semaphore does, so a proof
    // made for one sign-in cannot be given another message.
    signal messageSquare <== message * message;
}

// 2^24 credential leaves at most, the credential tree's LeanIMT depth.
component main {public [issuer, scope, message]} = SignInCredential(24);
