pragma circom 2.1.0;

// What a registration with a credential adds to the two OPRF slots (decisions 079, 085), fed by the ID
// slot's private hashed text t_id and its output y_id:
//   m = Poseidon(CREDENTIAL_SIGNATURE_DS, t_id, expiryDay)      what the issuer signed
//   EdDSAPoseidonVerifier(A, R8, S, m)                          the issuer A signed it
//   Poseidon(A.x, A.y) is a leaf of the tree whose root is     A is one of the trusted issuers,
//     issuersRoot (depth ISSUER_DEPTH)                          without saying which
//   expiryDay = 0 (never) or today <= expiryDay                 not expired on the challenge's day
//   idTag = Poseidon(CREDENTIAL_ID_TAG_LABEL, A.x, A.y, y_id)   the credential's own ID-tag space
// The tree's empty leaves are 0, which is no Poseidon output anyone can open to a key.

include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/eddsaposeidon.circom";
include "circomlib/circuits/poseidon.circom";
include "merkle-root.circom";

template CredentialBinding(ISSUER_DEPTH) {
    signal input issuer[2];
    signal input signatureR8[2];
    signal input signatureS;
    signal input issuerPath[ISSUER_DEPTH];
    signal input issuerSiblings[ISSUER_DEPTH];
    signal input idText;
    signal input expiryDay;
    signal input idOutput;
    signal input today;
    signal input issuersRoot;
    signal output idTag;

    var CREDENTIAL_SIGNATURE_DS = 698759218017588094181538796889590919059733444145; // "zeroid/credential/v1"
    var CREDENTIAL_ID_TAG_LABEL = 50350908062171342650148213031997981141638528029847930310654654001; // "zeroid/credential-id-tag/v1"

    component message = Poseidon(3);
    message.inputs <== [CREDENTIAL_SIGNATURE_DS, idText, expiryDay];

    component signature = EdDSAPoseidonVerifier();
    signature.enabled <== 1;
    signature.Ax <== issuer[0];
    signature.Ay <== issuer[1];
    signature.R8x <== signatureR8[0];
    signature.R8y <== signatureR8[1];
    signature.S <== signatureS;
    signature.M <== message.out;

    component leaf = Poseidon(2);
    leaf.inputs <== issuer;
    component tree = MerkleRoot(ISSUER_DEPTH);
    tree.leaf <== leaf.out;
    tree.pathBits <== issuerPath;
    tree.siblings <== issuerSiblings;
    tree.root === issuersRoot;

    // Days fit in 32 bits for eleven million years; LessEqThan is sound only on inputs of its width.
    component expiryBits = Num2Bits(32);
    expiryBits.in <== expiryDay;
    component todayBits = Num2Bits(32);
    todayBits.in <== today;
    component never = IsZero();
    never.in <== expiryDay;
    component inTime = LessEqThan(32);
    inTime.in <== [today, expiryDay];
    // never OR inTime.
    (1 - never.out) * (1 - inTime.out) === 0;

    component tag = Poseidon(4);
    tag.inputs <== [CREDENTIAL_ID_TAG_LABEL, issuer[0], issuer[1], idOutput];
    idTag <== tag.out;
}
