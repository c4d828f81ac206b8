pragma circom 2.1.0;

// A prototype of what a registration with a credential adds to the registration proof (decision 079).
// Not in the ceremony and not served: a design checked against the TypeScript by witness tests. The
// full circuit would be registration-v3's with this template fed by its ID slot:
//   m = Poseidon(CREDENTIAL_SIGNATURE_DS, t_id, expiryDay)      what the issuer signed
//   EdDSAPoseidonVerifier(A, R8, S, m)                          the issuer A signed it
//   expiryDay = 0 (never) or today <= expiryDay                 not expired on the challenge's day
//   idTag = Poseidon(CREDENTIAL_ID_TAG_LABEL, A.x, A.y, y_id)   the credential's own ID-tag space
// t_id is the same private input from which the ID slot derives its OPRF query, and y_id that slot's
// output, so the ID whose evaluation gives the tag is the ID the issuer signed. issuerHash =
// Poseidon(A.x, A.y) is what a Merkle proof of membership in the trusted issuers' tree would start
// from; here it is an output, so that a test can see it.

include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/eddsaposeidon.circom";
include "circomlib/circuits/poseidon.circom";

template CredentialBinding() {
    signal input issuer[2];
    signal input signatureR8[2];
    signal input signatureS;
    signal input idText;
    signal input expiryDay;
    signal input idOutput;
    signal input today;
    signal output idTag;
    signal output issuerHash;

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

    component leaf = Poseidon(2);
    leaf.inputs <== issuer;
    issuerHash <== leaf.out;
}

component main { public [today] } = CredentialBinding();
