/// <reference lib="webworker" />
import { ApiError } from '../shared/http.ts';
import type { ProverRequest, ProverResponse } from '../prover/messages.ts';
import { prepareProving, prepareRegistration, prepareSignInCredential } from '../prover/prepare-proving.ts';
import { proveRegistration } from '../features/register/prove-registration.ts';
import { proveVerification } from '../features/verify/prove-verification.ts';
import { proveSignIn } from '../features/sign-in/prove-sign-in.ts';
import { FLOW_GUESSES, withReservation } from '../oprf/with-reservation.ts';
import { timelineMark } from '../shared/timeline-mark.ts';

/**
 * The prover: derivation, OPRF rounds and Groth16 proving run here, off the page's main thread, so
 * the page stays responsive while a proof is computed. What was typed arrives by postMessage and
 * leaves only as blinded OPRF elements, derived values, signatures and a proof.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
timelineMark('prover-worker-started');
const reply = (message: ProverResponse) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<ProverRequest>) => {
  const request = event.data;
  const progress = (p: Extract<ProverResponse, { type: 'progress' }>['progress']) =>
    reply({ id: request.id, type: 'progress', progress: p });
  try {
    switch (request.type) {
      case 'prepare':
        // Starting this worker already loaded snarkjs (it is bundled here); the rest loads now.
        prepareProving(request.priority);
        return;
      case 'prepare-registration':
        prepareRegistration();
        return;
      case 'prepare-sign-in-credential':
        prepareSignInCredential();
        return;
      case 'register':
        reply({
          id: request.id,
          type: 'register-result',
          reply: await withReservation(FLOW_GUESSES.register, () => proveRegistration(request, progress)),
        });
        return;
      case 'verify':
        reply({
          id: request.id,
          type: 'verify-result',
          reply: await withReservation(FLOW_GUESSES.verify, () => proveVerification(request, progress)),
        });
        return;
      case 'sign-in':
        reply({
          id: request.id,
          type: 'sign-in-result',
          proofs: await withReservation(FLOW_GUESSES.verify, () => proveSignIn(request, progress)),
        });
        return;
    }
  } catch (error) {
    reply({
      id: request.id,
      type: 'error',
      message: error instanceof Error ? error.message : 'Something went wrong on this device. Please try again.',
      retryAfterSeconds: error instanceof ApiError ? error.retryAfterSeconds : undefined,
    });
  }
};
