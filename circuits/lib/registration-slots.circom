pragma circom 2.1.0;

// The two OPRF slots every registration proof shares (decisions 040, 062): from the hashed texts t
// and the blinds, for the blinded points B, the evaluations Z and the group key K,
//   x_bio = Poseidon(BIO_QUERY_TAG, t_bio)                   x_id = Poseidon(ID_QUERY_TAG, t_id)
//   y_bio = OprfOutput(x_bio, r_bio; B_bio, Z_bio, K)        y_id = OprfOutput(x_id, r_id; B_id, Z_id, K)
//   secret = low 250 bits of Poseidon(SEMAPHORE_LABEL, y_bio)
//   commitment = Poseidon(secret·Base8)                     exactly Semaphore v4's identity commitment
// and outputs the commitment, y_id and the secret; each circuit derives its own ID tag from y_id
// (registration-v3.circom: a plain ID's; registration-credential.circom: a credential's), and the
// credential circuit its credential leaf from the secret.

include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/escalarmulfix.circom";
include "circomlib/circuits/poseidon.circom";
include "oprf-output.circom";

template RegistrationSlots() {
    signal input bioText;
    signal input bioBlind;
    signal input idText;
    signal input idBlind;
    signal input bioBlinded[2];
    signal input bioEvaluated[2];
    signal input idBlinded[2];
    signal input idEvaluated[2];
    signal input groupKey[2];
    signal output commitment;
    signal output idOutput;
    signal output secret;

    var SEMAPHORE_LABEL = 2729528195381203497832717771219065409652094515; // "zeroid/semaphore/v3"
    var BIO_QUERY_TAG = 2729528195381203497233053099985455575429248563; // "zeroid/query/bio/v3"
    var ID_QUERY_TAG = 10662219513207826161066613671818215818229299; // "zeroid/query/id/v3"
    var BASE8[2] = [
        5299619240641551281634865583518297030282874472190772894086521144482721001553,
        16950150798460657717958625567821834550301663161624707787222815936182638968203
    ];

    // Each slot's query under its own domain tag, a constant of the circuit (decision 062).
    component bioQuery = Poseidon(2);
    bioQuery.inputs <== [BIO_QUERY_TAG, bioText];
    component idQuery = Poseidon(2);
    idQuery.inputs <== [ID_QUERY_TAG, idText];

    component bio = OprfOutput();
    bio.query <== bioQuery.out;
    bio.blind <== bioBlind;
    bio.blinded <== bioBlinded;
    bio.evaluated <== bioEvaluated;
    bio.groupKey <== groupKey;

    component id = OprfOutput();
    id.query <== idQuery.out;
    id.blind <== idBlind;
    id.blinded <== idBlinded;
    id.evaluated <== idEvaluated;
    id.groupKey <== groupKey;

    // The secret: the low 250 bits of the seed. Num2Bits_strict gives the seed's unique binary form,
    // so the secret is a function of y_bio: without it a second decomposition (seed + p) would give a
    // second identity for the same biometric.
    component seed = Poseidon(2);
    seed.inputs <== [SEMAPHORE_LABEL, bio.out];
    component seedBits = Num2Bits_strict();
    seedBits.in <== seed.out;
    component publicKey = EscalarMulFix(250, BASE8);
    for (var i = 0; i < 250; i++) publicKey.e[i] <== seedBits.out[i];
    component leaf = Poseidon(2);
    leaf.inputs <== publicKey.out;
    commitment <== leaf.out;
    idOutput <== id.out;

    // The secret as a number: a linear sum of the same 250 bits, so no constraint beyond its own.
    component secretNumber = Bits2Num(250);
    for (var i = 0; i < 250; i++) secretNumber.in[i] <== seedBits.out[i];
    secret <== secretNumber.out;
}
