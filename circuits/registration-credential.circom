pragma circom 2.1.0;

// The registration proof of an ID that is a credential (decision 085, designed in 079): the two OPRF
// slots of registration-v3.circom (lib/registration-slots.circom), and the ID slot's hashed text and
// output bound to a credential a trusted issuer signed (lib/credential-binding.circom). It shows, in
// zero knowledge, that the commitment is the biometric's, that the ID whose OPRF output gives the ID
// tag is the ID of a credential signed by an issuer in the tree whose root is issuersRoot, and that
// the credential has not expired on day `today`. It hides the ID, the credential, its signature, its
// expiry and which trusted issuer signed it.
// It also outputs the credential leaf L = Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret) (decision
// 086), with secret the identity's Semaphore secret: the leaf of the credential tree a sign-in proves
// membership of to tell a site which issuer vouches for the person. L hides the secret and the issuer:
// without the secret nobody can tell whose leaf it is, nor which issuer's.
// Public signals, in snarkjs's order: commitment, idTag, credentialLeaf (outputs), then B_bio, Z_bio,
// B_id, Z_id, K, challenge, didHash (as registration-v3's), today and issuersRoot. The registrar
// checks `today` against the challenge's day and issuersRoot against the tree of its TRUSTED_ISSUERS.

include "lib/credential-binding.circom";
include "lib/registration-slots.circom";

template RegistrationCredential(ISSUER_DEPTH) {
    signal input bioText;
    signal input bioBlind;
    signal input idText;
    signal input idBlind;
    signal input issuer[2];
    signal input signatureR8[2];
    signal input signatureS;
    signal input expiryDay;
    signal input issuerPath[ISSUER_DEPTH];
    signal input issuerSiblings[ISSUER_DEPTH];
    signal input bioBlinded[2];
    signal input bioEvaluated[2];
    signal input idBlinded[2];
    signal input idEvaluated[2];
    signal input groupKey[2];
    signal input challenge;
    signal input didHash;
    signal input today;
    signal input issuersRoot;
    signal output commitment;
    signal output idTag;
    signal output credentialLeaf;

    var CREDENTIAL_LEAF_DS = 768293885226003153231021317016570757166115235676190814467633; // "zeroid/credential-leaf/v1"

    component slots = RegistrationSlots();
    slots.bioText <== bioText;
    slots.bioBlind <== bioBlind;
    slots.idText <== idText;
    slots.idBlind <== idBlind;
    slots.bioBlinded <== bioBlinded;
    slots.bioEvaluated <== bioEvaluated;
    slots.idBlinded <== idBlinded;
    slots.idEvaluated <== idEvaluated;
    slots.groupKey <== groupKey;
    commitment <== slots.commitment;

    component credential = CredentialBinding(ISSUER_DEPTH);
    credential.issuer <== issuer;
    credential.signatureR8 <== signatureR8;
    credential.signatureS <== signatureS;
    credential.issuerPath <== issuerPath;
    credential.issuerSiblings <== issuerSiblings;
    credential.idText <== idText;
    credential.expiryDay <== expiryDay;
    credential.idOutput <== slots.idOutput;
    credential.today <== today;
    credential.issuersRoot <== issuersRoot;
    idTag <== credential.idTag;

    // The leaf binds the issuer whose signature was checked above to this identity's secret.
    component leaf = Poseidon(4);
    leaf.inputs <== [CREDENTIAL_LEAF_DS, issuer[0], issuer[1], slots.secret];
    credentialLeaf <== leaf.out;

    // Bind the challenge and the DID as registration-v3 does: a public input in no constraint could be
    // changed without the witness. `today` and issuersRoot are already in constraints above.
    signal challengeSquare <== challenge * challenge;
    signal didHashSquare <== didHash * didHash;
}

// 32 trusted issuers at most (decision 085).
component main {public [bioBlinded, bioEvaluated, idBlinded, idEvaluated, groupKey, challenge, didHash, today, issuersRoot]} = RegistrationCredential(5);
