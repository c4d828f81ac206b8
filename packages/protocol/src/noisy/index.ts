// Noise-tolerant biometrics, experimental (decisions 077 and 084): only the server's `noisy/` folder
// imports it, behind EXPERIMENTAL_NOISY_BIOMETRICS, so with the flag off every flow is what it was.
export { readBiometric, type BiometricReading } from './read-biometric.ts';
export { parseNoisyTemplate, MIN_CODE_BITS, MIN_DIMENSIONS, MAX_DIMENSIONS, type NoisyTemplate } from './noisy-template.ts';
export { projectEmbedding, PROJECTION_LABEL, PROJECTED_BITS } from './project-embedding.ts';
export { seededStream, type SeededStream } from './seeded-stream.ts';
export { IRIS_PARAMS, FACE_PARAMS, type LockerParams } from './locker-params.ts';
export { lockerSubsets, SUBSETS_LABEL } from './locker-subsets.ts';
export { templateBits, type TemplateBits } from './template-bits.ts';
export { lockerInputs, LOCKER_INPUT_LABEL } from './locker-inputs.ts';
export { blindLockers, evaluateLockers, finalizeLockers, type LockerBatch } from './locker-oprf.ts';
export { lockerOutputsWithKey } from './locker-outputs-with-key.ts';
export { lockerKeyPair } from './locker-key-pair.ts';
export { nobleLockerArithmetic, type LockerArithmetic } from './locker-arithmetic.ts';
export { lockLockers, lockerTag, lockerPad, xorBytes, TAG_BYTES, SEED_BYTES, type Locker } from './lock-lockers.ts';
export { lockerBucket, lockerFingerprint } from './locker-bucket.ts';
export { LockerTable, BUCKET_ENTRY_BYTES, STORED_LOCKER_BYTES, type BucketEntry } from './locker-table.ts';
export { bucketQueries, unlockLockers, type UnlockedSeed } from './unlock-lockers.ts';
export { deriveNoisyIdentity } from './derive-noisy-identity.ts';
export { deriveNoisyDid } from './derive-noisy-did.ts';
export { sketchTemplate, recoverFromSketch } from './repetition-sketch.ts';
export {
  syntheticIrisCode,
  syntheticIrisReading,
  irisCodeText,
  IRIS_BITS,
  NEIGHBOUR_FLIP,
  ERROR_BURST,
  type IrisCode,
} from './synthetic-iris.ts';
export { syntheticFace, syntheticFaceReading, cosine, FACE_DIMENSIONS, FACE_NOISE } from './synthetic-face.ts';
