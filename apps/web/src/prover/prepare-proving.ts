import type { MembersReply } from '@zeroid/protocol';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { provingArtifacts, registrationArtifacts, signInCredentialArtifacts } from './artifact-cache.ts';
import { fetchOprfKeys } from '../oprf/fetch-oprf-keys.ts';
import { warmUpCurve } from './warm-up-curve.ts';
import { timelineMark } from '../shared/timeline-mark.ts';

let curve: Promise<void> | undefined;

/**
 * Starts, before the button is pressed, what a proof waits for: the OPRF key, the group's parameters,
 * the circuit and proving key for its depth (from the Cache API after the first visit, checked against
 * their SHA-256) and the proof's curve. At 1.6 Mbps the 2 MB of compressed artifacts take some 10 s,
 * so they must start while the person reads and types (decision 043): `low` priority while nobody
 * waits yet (the welcome page), so the page's own requests go first; `high` on a screen that proves.
 * Each part starts once per worker, whoever asks; failures are left to the proof, which reports them.
 */
export function prepareProving(priority: RequestPriority): void {
  // The requests first: the curve's build keeps this thread busy, and the server can answer meanwhile.
  fetchOprfKeys().then(
    () => timelineMark('oprf-key-loaded'),
    () => undefined,
  );
  requestJson<MembersReply>(apiUrls.members()).then(
    (p) =>
      provingArtifacts(p.depth, undefined, { priority }).then(
        () => timelineMark('artifacts-loaded'),
        () => undefined,
      ),
    () => undefined,
  );
  curve ??= warmUpCurve().then(() => timelineMark('curve-built'));
}

/**
 * The same for a registration, when the registration screen opens: the OPRF keys, the curve, and
 * protocol v3's registration circuit and proving key (about 8 MB, kept in the Cache API), so the
 * proof does not wait for them after the button (decision 056). Not prefetched from the welcome
 * page: most visits verify, and they would all pay for it.
 */
export function prepareRegistration(): void {
  fetchOprfKeys().then(
    () => timelineMark('oprf-key-loaded'),
    () => undefined,
  );
  registrationArtifacts(undefined, { priority: 'high' }).then(
    () => timelineMark('artifacts-loaded'),
    () => undefined,
  );
  curve ??= warmUpCurve().then(() => timelineMark('curve-built'));
}

/**
 * For a sign-in whose site asks which organisation vouches for the person's ID (decision 089): the
 * sign-in credential circuit and its proving key load while the biometric is typed, beside what every
 * sign-in prepares.
 */
export function prepareSignInCredential(): void {
  signInCredentialArtifacts(undefined, { priority: 'high' }).then(
    () => timelineMark('credential-artifacts-loaded'),
    () => undefined,
  );
}
