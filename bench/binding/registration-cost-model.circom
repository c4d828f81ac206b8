pragma circom 2.1.0;

// A COST MODEL for decision 016, not a reviewed design: the shape of a registration proof that binds
// the commitment and the ID tag to two OPRF evaluations of the server's key, if the OPRF ran on Baby
// Jubjub (2HashDH, as World ID 4's OPRF nodes do) instead of ristretto255. It exists to be compiled,
// counted and timed (bench/binding/prove-cost-model.ts). Do not deploy it: it has had no audit, its
// hash-to-curve is a plain Elligator 2 sketch, and its constants are placeholders.
//
// Per input (biometric, then ID), the prover shows, for public (blinded, evaluated) points that the
// server checks itself (evaluated = k · blinded, one multiplication with its own key):
//   P = HashToBabyJubjub(domain, h)        h = Poseidon hash of the normalised text, computed outside
//   s · blinded = P                         s = the inverse of the client's blind, mod the group order
//   N = s · evaluated                       so N = k · P, the unblinded OPRF value
//   y = Poseidon(finalize, h, N)            the OPRF output
// then commitment = Poseidon(BabyPbk(secret(y_bio))) and idTag = Poseidon(label, y_id).

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/babyjub.circom";
include "circomlib/circuits/escalarmulany.circom";
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/montgomery.circom";
include "circomlib/circuits/pointbits.circom"; // its sqrt() (Tonelli-Shanks), for the witness

// Elligator 2 onto Baby Jubjub's Montgomery form (A = 168698, B = 1), to twisted Edwards, times 8.
template HashToBabyJubjub(DOMAIN) {
    signal input h;
    signal output out[2];

    var A = 168698;
    var Z = 5; // a non-square in the BN254 scalar field

    component hashToField = Poseidon(2);
    hashToField.inputs[0] <== DOMAIN;
    hashToField.inputs[1] <== h;
    signal u <== hashToField.out;
    signal u2 <== u * u;
    signal den <== 1 + Z * u2;
    signal x1;
    x1 <-- -A / den;
    x1 * den === -A;
    signal x2 <== -x1 - A;
    signal x1sq <== x1 * x1;
    signal x1cube <== x1sq * x1;
    signal gx1 <== x1cube + A * x1sq + x1;
    signal x2sq <== x2 * x2;
    signal x2cube <== x2sq * x2;
    signal gx2 <== x2cube + A * x2sq + x2;

    // isSquare = 1 when g(x1) is a square. Its witness w proves the claim either way: w² = g(x1), or
    // w² = Z·g(x1), which only a non-square g(x1) allows.
    signal isSquare;
    var g1 = gx1;
    var symbol = g1 ** ((-1) >> 1); // the Legendre symbol: 1 for a non-zero square
    var square = symbol == 1 ? 1 : 0;
    isSquare <-- square;
    isSquare * (1 - isSquare) === 0;
    signal t <== isSquare * gx1;
    signal w;
    var target = square == 1 ? g1 : Z * g1;
    var root = sqrt(target);
    w <-- root;
    w * w === Z * gx1 + (1 - Z) * t;

    signal x <== x2 + isSquare * (x1 - x2);
    signal gx <== gx2 + isSquare * (gx1 - gx2);
    signal y;
    var g2 = gx2;
    var gxValue = square == 1 ? g1 : g2;
    var yValue = evenRoot(gxValue);
    y <-- yValue;
    y * y === gx;
    // One y of the two: the even one, so the map is a function.
    component yBits = Num2Bits_strict();
    yBits.in <== y;
    yBits.out[0] === 0;

    component toEdwards = Montgomery2Edwards();
    toEdwards.in[0] <== x;
    toEdwards.in[1] <== y;
    component dbl1 = BabyDbl();
    dbl1.x <== toEdwards.out[0];
    dbl1.y <== toEdwards.out[1];
    component dbl2 = BabyDbl();
    dbl2.x <== dbl1.xout;
    dbl2.y <== dbl1.yout;
    component dbl3 = BabyDbl();
    dbl3.x <== dbl2.xout;
    dbl3.y <== dbl2.yout;
    out[0] <== dbl3.xout;
    out[1] <== dbl3.yout;
}

function evenRoot(n) {
    var r = sqrt(n);
    if ((r & 1) == 1) r = -r;
    return r;
}

template OprfUnblind(DOMAIN, FINALIZE) {
    signal input h;
    signal input inverseBlind;
    signal input blinded[2];
    signal input evaluated[2];
    signal output y;

    component point = HashToBabyJubjub(DOMAIN);
    point.h <== h;

    component sBits = Num2Bits(254);
    sBits.in <== inverseBlind;

    // s · blinded = P: the blinded point the server evaluated hides exactly this input.
    component unblindQuery = EscalarMulAny(254);
    unblindQuery.e <== sBits.out;
    unblindQuery.p <== blinded;
    unblindQuery.out[0] === point.out[0];
    unblindQuery.out[1] === point.out[1];

    // N = s · evaluated = k · P.
    component unblindAnswer = EscalarMulAny(254);
    unblindAnswer.e <== sBits.out;
    unblindAnswer.p <== evaluated;

    component finalize = Poseidon(4);
    finalize.inputs[0] <== FINALIZE;
    finalize.inputs[1] <== h;
    finalize.inputs[2] <== unblindAnswer.out[0];
    finalize.inputs[3] <== unblindAnswer.out[1];
    y <== finalize.out;
}

template RegistrationCostModel() {
    signal input bioHash;
    signal input bioInverseBlind;
    signal input bioBlinded[2];
    signal input bioEvaluated[2];
    signal input idHash;
    signal input idInverseBlind;
    signal input idBlinded[2];
    signal input idEvaluated[2];
    signal input challenge;
    signal output commitment;
    signal output idTag;

    component bio = OprfUnblind(1, 3);
    bio.h <== bioHash;
    bio.inverseBlind <== bioInverseBlind;
    bio.blinded <== bioBlinded;
    bio.evaluated <== bioEvaluated;
    component id = OprfUnblind(2, 3);
    id.h <== idHash;
    id.inverseBlind <== idInverseBlind;
    id.blinded <== idBlinded;
    id.evaluated <== idEvaluated;
    signal yBio <== bio.y;
    signal yId <== id.y;

    // The Semaphore secret: the low 250 bits of Poseidon(label, y_bio), below the subgroup order as
    // Semaphore's circuit requires.
    component seed = Poseidon(2);
    seed.inputs[0] <== 4;
    seed.inputs[1] <== yBio;
    signal secretSeed <== seed.out;
    component seedBits = Num2Bits_strict();
    seedBits.in <== secretSeed;
    component secret = Bits2Num(250);
    for (var i = 0; i < 250; i++) secret.in[i] <== seedBits.out[i];
    component publicKey = BabyPbk();
    publicKey.in <== secret.out;
    component leaf = Poseidon(2);
    leaf.inputs[0] <== publicKey.Ax;
    leaf.inputs[1] <== publicKey.Ay;
    commitment <== leaf.out;

    component tag = Poseidon(2);
    tag.inputs[0] <== 5;
    tag.inputs[1] <== yId;
    idTag <== tag.out;

    // Binds the proof to the one-time registration challenge (Semaphore's own trick).
    signal challengeSquare <== challenge * challenge;
}

component main {public [bioBlinded, bioEvaluated, idBlinded, idEvaluated, challenge]} = RegistrationCostModel();
