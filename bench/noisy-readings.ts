import sodium from 'libsodium-wrappers-sumo';
import {
  blindLockers,
  deriveNoisyIdentity,
  evaluateLockers,
  FACE_PARAMS,
  finalizeLockers,
  irisCodeText,
  IRIS_PARAMS,
  lockLockers,
  lockerInputs,
  projectEmbedding,
  readBiometric,
  seededStream,
  syntheticFace,
  syntheticFaceReading,
  syntheticIrisCode,
  syntheticIrisReading,
  templateBits,
  type LockerArithmetic,
  type LockerParams,
} from '@zeroid/protocol/noisy';
import { ristretto255 } from '../apps/server/src/oprf/libsodium.ts';
import { openedLockers } from './noisy-simulation.ts';

// The noisy-biometric bench's protocol runs in Node (decision 077): a registration's two halves, and
// synthetic readings that open a locker, for the timed verification in Chromium.

/** The server's side in Node: libsodium (native when built) for k·B, as the server's OPRF uses it. */
export const serverArithmetic = (): LockerArithmetic => ({
  fromHash: (uniform) => ristretto255.fromHash(uniform),
  multiply: (element, scalar) => ristretto255.scalarmult(scalar, element),
  randomScalar: () => sodium.crypto_core_ristretto255_scalar_random(),
  invertScalar: (scalar) => sodium.crypto_core_ristretto255_scalar_invert(scalar),
});

/** A registration through the protocol in Node (client and server halves), returning what the stand-in server keeps. */
export function registerNoisy(text: string, params: LockerParams, secretKey: Uint8Array) {
  const arithmetic = serverArithmetic();
  const reading = readBiometric(text, { experimentalNoisy: true });
  if (reading.kind !== 'noisy') throw new Error('not a template');
  const batch = blindLockers(lockerInputs(templateBits(reading.template, params)), arithmetic);
  const outputs = finalizeLockers(batch, evaluateLockers(secretKey, batch.blinded, params.lockers, arithmetic), arithmetic);
  const seed = sodium.randombytes_buf(16);
  return { lockers: lockLockers(outputs, seed), commitment: deriveNoisyIdentity(seed).commitment };
}

/** Readings of a model that open at least one locker (the timed verification is a successful one; the FRR is measured apart). */
export function openingReading(model: 'iris' | 'face', run: number) {
  const stream = seededStream(`bench/noisy/chromium/${model}`);
  if (model === 'iris') {
    const eye = syntheticIrisCode(stream);
    for (;;) {
      const reading = syntheticIrisReading(eye, 0.15, stream);
      const opened = openedLockers({ enrol: eye.bits, enrolValid: eye.valid, read: reading.bits, readValid: reading.valid }, IRIS_PARAMS);
      if (opened.length > 0 && run-- <= 0) return { enrolText: irisCodeText(eye), readText: irisCodeText(reading) };
    }
  }
  const face = syntheticFace(stream);
  const enrol = syntheticFaceReading(face, stream);
  const all = new Uint8Array(2048).fill(1);
  for (;;) {
    const read = syntheticFaceReading(face, stream);
    const opened = openedLockers(
      { enrol: projectEmbedding(enrol), enrolValid: all, read: projectEmbedding(read), readValid: all },
      FACE_PARAMS,
    );
    if (opened.length > 0 && run-- <= 0) return { enrolText: JSON.stringify([...enrol]), readText: JSON.stringify([...read]) };
  }
}
