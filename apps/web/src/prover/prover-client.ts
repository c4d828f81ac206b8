import type { RegisterReply, VerifyReply } from '@zeroid/protocol';
import type { Progress } from '../shared/progress.ts';
import { ApiError } from '../shared/http.ts';
import type { MoveRefused, ProverRequest, ProverResponse, SignInProofs, SignInRequest } from './messages.ts';

type Pending = { resolve(value: unknown): void; reject(error: Error): void; onProgress?: ((p: Progress) => void) | undefined };

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

/**
 * One long-lived worker per page: snarkjs, the OPRF key and the proving key stay loaded in it. Its
 * entry is app/prover.worker.ts: like main.tsx it assembles the screens' steps, so it lives with the app.
 */
function proverWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('../app/prover.worker.ts', import.meta.url), { type: 'module', name: 'zeroid-prover' });
  worker.onmessage = (event: MessageEvent<ProverResponse>) => {
    const message = event.data;
    const call = pending.get(message.id);
    if (!call) return;
    if (message.type === 'progress') return call.onProgress?.(message.progress);
    pending.delete(message.id);
    if (message.type === 'error') call.reject(new ApiError(message.message, undefined, message.retryAfterSeconds));
    else call.resolve(message.type === 'sign-in-result' ? message.proofs : message.reply);
  };
  worker.onerror = () => {
    for (const call of pending.values())
      call.reject(new ApiError('The prover stopped unexpectedly. Please reload the page and try again.'));
    pending.clear();
    worker = undefined;
  };
  return worker;
}

function call<T>(request: Omit<ProverRequest, 'id'>, onProgress?: (p: Progress) => void): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: (value) => resolve(value as T), reject, onProgress });
    const message = { ...request, id };
    proverWorker().postMessage(message);
  });
}

let prepared: RequestPriority | undefined;

/**
 * Starts the worker and what a proof needs (OPRF key, group parameters, circuit and proving key, the
 * curve) ahead of the button, once per page (decision 043); asked again at `high`, the parts not yet
 * started are asked for at that priority.
 */
export function prepare(priority: RequestPriority): void {
  if (prepared === priority || prepared === 'high') return;
  prepared = priority;
  proverWorker().postMessage({ id: 0, type: 'prepare', priority } satisfies ProverRequest);
}

let registrationPrepared = false;

/** Starts the worker and the registration proof's downloads as the registration screen opens, once per page. */
export function prepareRegistration(): void {
  if (registrationPrepared) return;
  registrationPrepared = true;
  proverWorker().postMessage({ id: 0, type: 'prepare-registration' } satisfies ProverRequest);
}

export function registerInBrowser(
  input: { idInfo: string; bioInfo: string },
  onProgress?: (p: Progress) => void,
): Promise<RegisterReply | MoveRefused> {
  return call<RegisterReply | MoveRefused>({ type: 'register', ...input }, onProgress);
}

export function verifyInBrowser(
  input: { bioInfo: string; session?: string | undefined },
  onProgress?: (p: Progress) => void,
): Promise<VerifyReply> {
  return call<VerifyReply>({ type: 'verify', ...input }, onProgress);
}

/**
 * Sign in with ZeroID: starts the worker and loads the group's parameters, the proving artifacts and
 * the curve ahead (the router asks while the screen's code loads, the screen again).
 */
export function prepareSignIn(): void {
  prepare('high');
}

let credentialPrepared = false;

/**
 * A sign-in whose site asks which organisation vouches for the person's ID (decision 089): the sign-in
 * credential circuit and its proving key load too, once per page.
 */
export function prepareSignInCredential(): void {
  if (credentialPrepared) return;
  credentialPrepared = true;
  proverWorker().postMessage({ id: 0, type: 'prepare-sign-in-credential' } satisfies ProverRequest);
}

/**
 * Sign in with ZeroID: a proof for the site's scope and, when the site asks for it and the person lets
 * it be told, the credential's proof (decision 089); undefined when the biometric is not registered.
 */
export function signInInBrowser(input: SignInRequest, onProgress?: (p: Progress) => void): Promise<SignInProofs | undefined> {
  return call<SignInProofs | undefined>({ type: 'sign-in', ...input }, onProgress);
}
