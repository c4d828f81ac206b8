import { Evaluation, VOPRFClient } from '@cloudflare/voprf-ts';
import { OprfProofError } from './errors.ts';
import { OPRF_CRYPTO, OPRF_SUITE, oprfInput, type OprfDomain } from './oprf-suite.ts';

/**
 * The client's side of one OPRF round. The server sees only `request`, a blinded point that is
 * uniformly random whatever the input, so it learns nothing about the ID or biometric. `finalize`
 * unblinds the server's answer after checking its DLEQ proof against the published key: a server
 * that used a different key for this person (to tag them) is caught here.
 *
 * @throws OprfProofError from `finalize` when the evaluation is malformed or its proof fails.
 */
export async function blindOprfInput(
  publicKey: Uint8Array,
  domain: OprfDomain,
  normalised: string,
): Promise<{ request: Uint8Array; finalize: (evaluation: Uint8Array) => Promise<Uint8Array> }> {
  const client = new VOPRFClient(OPRF_SUITE, publicKey, OPRF_CRYPTO);
  const [finalizeData, evaluationRequest] = await client.blind([oprfInput(domain, normalised)]);
  return {
    request: evaluationRequest.serialize(),
    async finalize(serialized: Uint8Array) {
      let outputs: Uint8Array[];
      try {
        const evaluation = Evaluation.deserialize(OPRF_SUITE, serialized, OPRF_CRYPTO);
        if (evaluation.evaluated.length !== 1) throw new Error('expected one element');
        outputs = await client.finalize(finalizeData, evaluation);
      } catch {
        throw new OprfProofError();
      }
      const [output] = outputs;
      if (!output) throw new OprfProofError();
      return output;
    },
  };
}
