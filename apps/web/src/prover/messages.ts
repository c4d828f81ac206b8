import type { SemaphoreProof } from '@semaphore-protocol/proof';
import type { RegisterReply, VerifyReply, WireCredentialSignInProof } from '@zeroid/protocol';
import type { Progress } from '../shared/progress.ts';

/** What the page asks the prover worker, and what the worker answers. */
export type ProverRequest =
  // Load what a proof needs ahead of it (decision 043): at low priority while nobody waits yet.
  | { id: number; type: 'prepare'; priority: RequestPriority }
  // The registration screen opened: load the registration circuit and its key (decision 056).
  | { id: number; type: 'prepare-registration' }
  | { id: number; type: 'register'; idInfo: string; bioInfo: string }
  | { id: number; type: 'verify'; bioInfo: string; session?: string | undefined }
  // A sign-in's site asks which organisation vouches for the person's ID: load its circuit (decision 089).
  | { id: number; type: 'prepare-sign-in-credential' }
  // Sign in with ZeroID (decision 023), with the credential's proof when the site asks and the person lets it be told (decision 089).
  | ({ id: number; type: 'sign-in' } & SignInRequest);

/**
 * A sign-in to prove: the person's biometric, the sign-in's id, scope and challenge, whether its site
 * asks which organisation vouches for the person's ID, and whether the person lets it be told (the
 * screen's box, ticked unless they untick it; read only when the site asks).
 */
export interface SignInRequest {
  bioInfo: string;
  uid: string;
  scope: string;
  challenge: string;
  asksCredential: boolean;
  shareCredential: boolean;
}

export type ProverResponse =
  | { id: number; type: 'progress'; progress: Progress }
  | { id: number; type: 'register-result'; reply: RegisterReply | MoveRefused }
  | { id: number; type: 'verify-result'; reply: VerifyReply }
  | { id: number; type: 'sign-in-result'; proofs: SignInProofs | undefined }
  | { id: number; type: 'error'; message: string; retryAfterSeconds?: number | undefined };

/** A move from v2 the server refused because it would evict another registration: the page offers the raw move. */
export type MoveRefused = { moveRefused: true; message: string };

/**
 * What a sign-in sends: the membership proof and, when the site asked which organisation vouches for
 * the person's ID (decision 089), whether a credential was found: `shared` with its proof and its issuer's name (what the site will
 * be told, for the screen to say), or `none`; `declined` when the person chose not to tell, so none was looked for.
 */
export type SignInProofs =
  | { proof: SemaphoreProof; credential: 'not-asked' | 'declined' | 'none' }
  | { proof: SemaphoreProof; credential: 'shared'; credentialProof: WireCredentialSignInProof; issuerName: string };
