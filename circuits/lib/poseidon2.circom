pragma circom 2.1.0;

// Poseidon2 (Grassi, Khovratovich and Schofnegger, ePrint 2023/323) over the BN254 scalar field, state
// size 3: the permutation TACEO's OPRF uses for hash_to_field and that protocol v3 also uses for
// Finalize. Written for ZeroID after the structure of @taceo/poseidon2 (MIT); the constants are
// generated from that package (poseidon2-constants.circom). 240 constraints: three per S-box, 8 full
// rounds of 3 S-boxes and 56 partial rounds of 1; the linear layers are free.

include "poseidon2-constants.circom";

template Poseidon2Sbox() {
    signal input in;
    signal output out;
    signal in2 <== in * in;
    signal in4 <== in2 * in2;
    out <== in4 * in;
}

template Poseidon2T3() {
    signal input in[3];
    signal output out[3];

    var EXTERNAL_RC[8][3] = POSEIDON2_T3_EXTERNAL_RC();
    var INTERNAL_RC[56] = POSEIDON2_T3_INTERNAL_RC();

    component full[8][3];
    component partial[56];

    // External matrix circ(2, 1, 1): every element plus the sum.
    var sum = in[0] + in[1] + in[2];
    var s[3] = [in[0] + sum, in[1] + sum, in[2] + sum];

    var p = 0;
    for (var r = 0; r < 8; r++) {
        if (r == 4) {
            for (var i = 0; i < 56; i++) {
                partial[i] = Poseidon2Sbox();
                partial[i].in <== s[0] + INTERNAL_RC[i];
                // Internal matrix: diag(1, 1, 2) plus the all-ones matrix.
                sum = partial[i].out + s[1] + s[2];
                s = [partial[i].out + sum, s[1] + sum, 2 * s[2] + sum];
            }
        }
        for (var j = 0; j < 3; j++) {
            full[r][j] = Poseidon2Sbox();
            full[r][j].in <== s[j] + EXTERNAL_RC[r][j];
        }
        sum = full[r][0].out + full[r][1].out + full[r][2].out;
        s = [full[r][0].out + sum, full[r][1].out + sum, full[r][2].out + sum];
    }
    out <== s;
}
