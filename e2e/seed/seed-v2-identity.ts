import { deriveAll, generateOprfKeyPair, normaliseInput, oprfInput, voprfEvaluate } from '@zeroid/protocol';
import { openStorage } from '../../apps/server/src/storage/open-storage.ts';

/**
 * Test-only seeding (decision 056: "a v2 identity made before the change still verifies"): makes a v2
 * OPRF key and registers one person the way the web app did before protocol v3, with the v2
 * derivations (commitment, ID tag, DID from the ristretto255 OPRF outputs of their biometric and ID),
 * written through the server's own storage into DATA_DIR before any server starts there. Prints the
 * key (for OPRF_PRIVATE_KEY) and the derived values as JSON on stdout; nothing raw is stored.
 *
 *   DATA_DIR=… SEED_ID=… SEED_BIO=… node --import tsx e2e/seed/seed-v2-identity.ts
 */
const { DATA_DIR, SEED_ID, SEED_BIO } = process.env;
if (!DATA_DIR || !SEED_ID || !SEED_BIO) throw new Error('DATA_DIR, SEED_ID and SEED_BIO are required');

const { privateKey } = await generateOprfKeyPair();
const oprfBio = voprfEvaluate(privateKey, oprfInput('bio', normaliseInput(SEED_BIO)));
const oprfId = voprfEvaluate(privateKey, oprfInput('id', normaliseInput(SEED_ID)));
const { commitment, did, idTag } = deriveAll(oprfBio, oprfId);
const storage = await openStorage({ dataDir: DATA_DIR });
try {
  const outcome = await storage.identities.register({ commitment, idTag, did });
  if (!outcome.inserted) throw new Error('the seeded identity was not inserted');
} finally {
  await storage.close();
}
process.stdout.write(`${JSON.stringify({ privateKey: Buffer.from(privateKey).toString('base64url'), commitment, did })}\n`);
