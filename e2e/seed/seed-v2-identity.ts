import { deriveAll, generateOprfKeyPair, normaliseInput, oprfInput, voprfEvaluate } from '@zeroid/protocol';
import { babyJubjubSuite, deriveRegistration, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { openStorage } from '../../apps/server/src/storage/open-storage.ts';

/**
 * Test-only seeding (decision 056: "a v2 identity made before the change still verifies"): makes a v2
 * OPRF key and registers one person the way the web app did before protocol v3, with the v2
 * derivations (commitment, ID tag, DID from the ristretto255 OPRF outputs of their biometric and ID),
 * written through the server's own storage into DATA_DIR before any server starts there. Prints the
 * key (for OPRF_PRIVATE_KEY) and the derived values as JSON on stdout; nothing raw is stored.
 *
 * With SEED_BOTH_ID and SEED_BOTH_BIO, a second person holds a v2 and a v3 identity of the same
 * texts, as the zero-knowledge path allowed before decision 073 (for the erasure of both).
 *
 *   DATA_DIR=… SEED_ID=… SEED_BIO=… node --import tsx e2e/seed/seed-v2-identity.ts
 */
const { DATA_DIR, SEED_ID, SEED_BIO, SEED_BOTH_ID, SEED_BOTH_BIO } = process.env;
if (!DATA_DIR || !SEED_ID || !SEED_BIO) throw new Error('DATA_DIR, SEED_ID and SEED_BIO are required');

const { privateKey } = await generateOprfKeyPair();
const oprfBio = voprfEvaluate(privateKey, oprfInput('bio', normaliseInput(SEED_BIO)));
const oprfId = voprfEvaluate(privateKey, oprfInput('id', normaliseInput(SEED_ID)));
const { commitment, did, idTag } = deriveAll(oprfBio, oprfId);

/** The person's v2 and v3 rows: the v3 key is derived from the v2 one, as a single-key server does (decision 056). */
async function bothVersions(id: string, bio: string) {
  const v2 = deriveAll(
    voprfEvaluate(privateKey, oprfInput('bio', normaliseInput(bio))),
    voprfEvaluate(privateKey, oprfInput('id', normaliseInput(id))),
  );
  const key = v3KeyFromV2(privateKey);
  const output = async (domain: 'bio' | 'id', text: string) =>
    BigInt(`0x${Buffer.from(await babyJubjubSuite.evaluate(key, domain, normaliseInput(text))).toString('hex')}`);
  const v3 = deriveRegistration(await output('bio', bio), await output('id', id));
  return [
    { commitment: v2.commitment, idTag: v2.idTag, did: v2.did },
    { commitment: v3.commitment, idTag: v3.idTag, did: v3.didKey.did },
  ];
}

const both = SEED_BOTH_ID && SEED_BOTH_BIO ? await bothVersions(SEED_BOTH_ID, SEED_BOTH_BIO) : [];
const storage = await openStorage({ dataDir: DATA_DIR });
try {
  for (const row of [{ commitment, idTag, did }, ...both]) {
    const outcome = await storage.identities.register(row);
    if (!outcome.inserted) throw new Error('a seeded identity was not inserted');
  }
} finally {
  await storage.close();
}
const bothDids = both.map((row) => row.did);
process.stdout.write(`${JSON.stringify({ privateKey: Buffer.from(privateKey).toString('base64url'), commitment, did, bothDids })}\n`);
