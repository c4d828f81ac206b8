import { BN254_BASE_FIELD, MAX_DEPTH, MAX_SIGN_IN_SECTORS, SNARK_SCALAR_FIELD, type WireSemaphoreProof } from '@zeroid/protocol';

/** Every JSON body stays within a few KiB (decision 002)… */
export const BODY_LIMIT = 8 * 1024;
/** …except the raw bodies, which carry two text fields of up to `MAX_INPUT_BYTES` (16 KiB), JSON-escaped. */
export const RAW_BODY_LIMIT = 64 * 1024;

/** The longest a schema-valid Semaphore proof is as compact JSON: the deepest tree, every number at its most digits. */
const LONGEST_PROOF: WireSemaphoreProof = {
  merkleTreeDepth: MAX_DEPTH,
  merkleTreeRoot: String(SNARK_SCALAR_FIELD - 1n),
  nullifier: String(SNARK_SCALAR_FIELD - 1n),
  message: String(SNARK_SCALAR_FIELD - 1n),
  scope: String(SNARK_SCALAR_FIELD - 1n),
  points: Array(8).fill(String(BN254_BASE_FIELD - 1n)) as WireSemaphoreProof['points'],
};
export const MAX_PROOF_JSON_BYTES = Buffer.byteLength(JSON.stringify(LONGEST_PROOF));

/**
 * …and POST /erase, whose zero-knowledge body carries a sign-in proof per registered sector, up to
 * `MAX_SIGN_IN_SECTORS` (decisions 048 and 055), and under protocol v3 one proof more, its own
 * (`ownProof`, decision 056), and with the person's v2 identity erased beside it, that identity's
 * sign-in proofs too (decision 073): the rest of that body fits `BODY_LIMIT` many times over, and
 * each proof takes at most `MAX_PROOF_JSON_BYTES` and a comma: 530 KiB. Never less than the raw body's limit,
 * which the same route takes.
 */
export const ERASE_BODY_LIMIT = Math.max(RAW_BODY_LIMIT, BODY_LIMIT + (2 * MAX_SIGN_IN_SECTORS + 1) * (MAX_PROOF_JSON_BYTES + 1));
