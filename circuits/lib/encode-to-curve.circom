pragma circom 2.1.0;

// H1 of protocol v3's 2HashDH: TACEO's encode_to_curve for Baby Jubjub, as @taceo/oprf-core computes
// it (packages/protocol/src/v3/query-point.ts), written for ZeroID:
//   u = Poseidon2_t3([DS, query, 0])[1]         hash_to_field, DS = "OPRF_HashToField_BabyJubJub"
//   (x, y) = Elligator2(u)                       RFC 9380 §6.7.1 on the Montgomery form, A = 168698, Z = 5
//   (v, w) = (x / y, (x - 1) / (x + 1))          the rational map to twisted Edwards (a = 168700, d = 168696)
//   P = 8 · (v, w)                                clear the cofactor
// The constraints pin u, the branch and x; they leave the sign of y free, so P is fixed up to sign.
// Protocol v3 hashes only N.y in Finalize, and (-P) gives -N, so the sign changes no output; the
// witness takes TACEO's root (odd exactly when g(x1) is a square), so an honest client's P is TACEO's.
// Exceptional inputs: 1 + Z·u² = 0 or x = -1 is unsatisfiable; u = 0 (x = y = 0) leaves v free. Each
// needs a chosen Poseidon2 output (a preimage of 0 for u = 0), so no prover, honest or not, meets one.

include "circomlib/circuits/babyjub.circom";
include "circomlib/circuits/pointbits.circom"; // sqrt() for the witness
include "poseidon2.circom";

// bytes of "OPRF_HashToField_BabyJubJub", read big-endian
function HASH_TO_FIELD_DS() {
    return 32627786498498119128812045057993354633158048678109587794777765218;
}

template EncodeToCurve() {
    signal input query;
    signal output out[2];

    var A = 168698;
    var Z = 5;

    component hashToField = Poseidon2T3();
    hashToField.in <== [HASH_TO_FIELD_DS(), query, 0];
    signal u <== hashToField.out[1];

    signal u2 <== u * u;
    signal x1;
    x1 <-- -A / (1 + Z * u2);
    x1 * (1 + Z * u2) === -A;
    signal x1sq <== x1 * x1;
    signal x1cubic <== x1sq * (x1 + A);
    var gx1 = x1cubic + x1;
    var x2 = -x1 - A;
    signal gx2 <== Z * u2 * gx1;

    // The branch: g(x1) is a square, or else g(x2) = Z·u²·g(x1) is. y² = g(x) below admits only the
    // true one (the other g is a non-square), so the bit needs no check beyond being a bit.
    signal isSquare;
    var legendre = gx1 ** ((-1) >> 1);
    isSquare <-- (legendre == 0 || legendre == 1) ? 1 : 0;
    isSquare * (1 - isSquare) === 0;
    signal x <== x2 + isSquare * (x1 - x2);
    signal gx <== gx2 + isSquare * (gx1 - gx2);
    signal y;
    var root = sqrt(isSquare == 1 ? gx1 : gx2);
    y <-- ((root & 1) == isSquare) ? root : -root;
    y * y === gx;

    signal v;
    v <-- x / y;
    v * y === x;
    signal w;
    w <-- (x - 1) / (x + 1);
    w * (x + 1) === x - 1;

    component double1 = BabyDbl();
    double1.x <== v;
    double1.y <== w;
    component double2 = BabyDbl();
    double2.x <== double1.xout;
    double2.y <== double1.yout;
    component double3 = BabyDbl();
    double3.x <== double2.xout;
    double3.y <== double2.yout;
    out <== [double3.xout, double3.yout];
}
