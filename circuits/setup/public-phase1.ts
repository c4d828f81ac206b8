/**
 * The public phase-1 files this build accepts as public, by the BLAKE2b-512 their ceremony published:
 * the Hermez powers of tau (the perpetual powers of tau's first 54 contributions, closed with a
 * beacon), from the table in snarkjs's README (the copy installed with snarkjs 0.7 has it). A phase 1
 * is reported `public` only when its file has one of these hashes, so nobody can call a file of their
 * own "public" by typing its hash at `import-phase1`: adding a hash here is a change to the code,
 * seen in review like any other pin.
 */
export const PUBLIC_PHASE1: Readonly<Record<string, { power: number; blake2b: string }>> = {
  'powersOfTau28_hez_final_14.ptau': {
    power: 14,
    blake2b:
      'eeefbcf7c3803b523c94112023c7ff89558f9b8e0cf5d6cdcba3ade60f168af4a181c9c21774b94fbae6c90411995f7d854d02ebd93fb66043dbb06f17a831c1',
  },
  'powersOfTau28_hez_final_15.ptau': {
    power: 15,
    blake2b:
      '982372c867d229c236091f767e703253249a9b432c1710b4f326306bfa2428a17b06240359606cfe4d580b10a5a1f63fbed499527069c18ae17060472969ae6e',
  },
  'powersOfTau28_hez_final_16.ptau': {
    power: 16,
    blake2b:
      '6a6277a2f74e1073601b4f9fed6e1e55226917efb0f0db8a07d98ab01df1ccf43eb0e8c3159432acd4960e2f29fe84a4198501fa54c8dad9e43297453efec125',
  },
};

/** The BLAKE2b-512 values of `PUBLIC_PHASE1`, which `importPhase1`, `setupState` and `verifySetup` take (a test passes its own). */
export const PUBLIC_PHASE1_HASHES: readonly string[] = Object.values(PUBLIC_PHASE1).map((file) => file.blake2b);
