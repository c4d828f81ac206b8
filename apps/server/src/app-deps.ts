import type Provider from 'oidc-provider';
import type { OprfEvaluator, WireCredentialSignInProof } from '@zeroid/protocol';
import type { Config } from './config.ts';
import type { GuessLimits } from './limits/create-guess-limits.ts';
import type { Artifacts } from './proofs/artifacts.ts';
import type { Metrics } from './metrics.ts';
import type { admissionSigner } from './oprf/oprf-admission-signer.ts';
import type { OprfNodesState } from './oprf/nodes/oprf-node-set.ts';
import type { OprfV3Key } from './oprf/oprf-key-v3.ts';
import type { ProofVerifier } from './proofs/verifier/proof-verifier.ts';
import type { RawDeriver } from './identity/raw/raw-deriver.ts';
import type { Registry } from './member-tree/member-tree.ts';
import type { SessionQrImages } from './sessions/session-qr-images.ts';
import type { SessionStreamCaps } from './sessions/session-stream-caps.ts';
import type { SessionWatcher } from './sessions/session-watcher.ts';
import type { Storage } from './storage/types.ts';

/** What the process tells the app about itself: while warming up or draining, /healthz says not-ready. */
export interface Lifecycle {
  /** The raw path's worker threads are still warming up (`RawDeriver.ready`). */
  warmingUp: boolean;
  draining: boolean;
}

/**
 * What the assembly builds (`compose.ts`) and `app.ts` is given. The routes get it without storage
 * (`RouteDeps`, route-use-cases.ts), with the use cases that need storage bound to it. It lives here,
 * apart from both, so that no route imports `app.ts` back.
 */
export interface AppDeps {
  lifecycle: Lifecycle;
  config: Config;
  storage: Storage;
  registry: Registry;
  /** The credential tree (decision 088): one leaf per identity registered with a credential. */
  credentialRegistry: Registry;
  /** The single key's evaluator; undefined in threshold mode, where this process holds no key. */
  oprf: OprfEvaluator | undefined;
  /** The single key's protocol v3 key, derived from the v2 key (decision 056); undefined in threshold mode. */
  oprfV3: OprfV3Key | undefined;
  /** Threshold mode only (decision 021): the nodes' keys once t of them have been checked. */
  oprfNodes?: OprfNodesState | undefined;
  /** Threshold mode only (decision 032): signs the admissions the nodes require, once a guess is counted. */
  admissions?: ReturnType<typeof admissionSigner> | undefined;
  /** The raw path's derivations: on worker threads in the server, in-process by default. */
  deriver: RawDeriver;
  /** Groth16 verification on worker threads, batched. */
  proofVerifier: ProofVerifier;
  /** The Groth16 check of a credential sign-in proof for a sign-in's scope and message (decision 088). */
  verifyCredentialProof: (proof: WireCredentialSignInProof, binding: { scope: string; message: string }) => Promise<boolean>;
  artifacts: Artifacts;
  limits: GuessLimits;
  metrics: Metrics;
  /** Reads every watched session once per interval and tells their event streams. */
  sessionWatcher: SessionWatcher;
  /** Open event streams per client, per session and in all. */
  streamCaps: SessionStreamCaps;
  /** Each session's QR image, drawn once. */
  qrImages: SessionQrImages;
  /** Sign in with ZeroID (decision 023): the process's OpenID provider, rebuilt when the keys change. */
  openidProvider: () => Promise<Provider>;
}
