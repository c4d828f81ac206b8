import { generateOprfKeyPair } from './packages/protocol/src/index.ts';
import { deriveFromRaw } from './apps/server/src/identity/raw/raw-identity.ts';
import { singleKeyOutputs } from './apps/server/src/identity/raw/single-key-outputs.ts';
const { privateKey } = await generateOprfKeyPair();
const { v2, v3 } = singleKeyOutputs(privateKey);
for (let i = 0; i < 100; i++) await deriveFromRaw(v2, v3, { idInfo: 'id ' + i, bioInfo: 'bio ' + i });
const s = performance.now(); for (let i = 0; i < 1500; i++) await deriveFromRaw(v2, v3, { idInfo: 'id ' + i, bioInfo: 'bio ' + i }); console.log('ms/derivation', ((performance.now() - s) / 1500).toFixed(3));
