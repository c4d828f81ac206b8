pragma circom 2.1.0;

// One input's OPRF round inside the registration proof. Public: the blinded point B the client sent,
// the (combined) evaluation Z the key holders answered, and the group key K. Private: the query x and
// the blind r. The template shows
//   B = H1(x) + r·G          B hides exactly this query (additive blinding, decision 040)
//   N = Z - r·K              so N = k·H1(x) whenever the registrar has checked Z = k·B and K = k·G
//   y = Poseidon2_t3([FINALIZE_DS, x, N.y])[1]
// and outputs y. The registrar checks Z (its own key, or the nodes' DLEQ proofs and their combination)
// and K outside the circuit; it also checks that B, Z and K are points of the prime-order subgroup
// other than the identity, which EscalarMulAny assumes of K.

include "circomlib/circuits/babyjub.circom";
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/escalarmulany.circom";
include "circomlib/circuits/escalarmulfix.circom";
include "encode-to-curve.circom";
include "poseidon2.circom";

// bytes of "ZeroID OPRFv3 Finalize", read big-endian (FINALIZE_DS in packages/protocol/src/v3/oprf-suite.ts)
function FINALIZE_DS() {
    return 33821262696187394405841952049496345882757670814448229;
}

// Blinds are scalars below the subgroup order, which is below 2^251.
function BLIND_BITS() {
    return 251;
}

template OprfOutput() {
    signal input query;
    signal input blind;
    signal input blinded[2];
    signal input evaluated[2];
    signal input groupKey[2];
    signal output out;

    var BASE8[2] = [
        5299619240641551281634865583518297030282874472190772894086521144482721001553,
        16950150798460657717958625567821834550301663161624707787222815936182638968203
    ];

    component point = EncodeToCurve();
    point.query <== query;

    component blindBits = Num2Bits(BLIND_BITS());
    blindBits.in <== blind;

    // B = P + r·G
    component blindTimesG = EscalarMulFix(BLIND_BITS(), BASE8);
    blindTimesG.e <== blindBits.out;
    component blindedPoint = BabyAdd();
    blindedPoint.x1 <== point.out[0];
    blindedPoint.y1 <== point.out[1];
    blindedPoint.x2 <== blindTimesG.out[0];
    blindedPoint.y2 <== blindTimesG.out[1];
    blindedPoint.xout === blinded[0];
    blindedPoint.yout === blinded[1];

    // N = Z - r·K (the negation of (x, y) is (-x, y))
    component blindTimesKey = EscalarMulAny(BLIND_BITS());
    blindTimesKey.e <== blindBits.out;
    blindTimesKey.p <== groupKey;
    component unblinded = BabyAdd();
    unblinded.x1 <== evaluated[0];
    unblinded.y1 <== evaluated[1];
    unblinded.x2 <== -blindTimesKey.out[0];
    unblinded.y2 <== blindTimesKey.out[1];

    component finalize = Poseidon2T3();
    finalize.in <== [FINALIZE_DS(), query, unblinded.yout];
    out <== finalize.out[1];
}
