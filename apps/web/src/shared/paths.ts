import { config } from './config.ts';

/** Every route of the app and every URL it calls, built in one place. */
export const routes = {
  home: '/',
  register: '/register',
  verify: '/user-verification',
  qr: '/generate-qr',
  invalidDid: '/invalid-did',
  authorised: '/user-authorised',
  erase: '/erase',
  didQr: (did: string) => `/generate-qr?did=${encodeURIComponent(did)}`,
  /** A site's sign-in screen, `/signin/:uid` (decision 023), which the provider's 303 opens. */
  signInPrefix: '/signin/',
} as const;

/** The router state of "Try again" on /invalid-did: the verification screen brings back what was typed. */
export const tryAgainState = { tryAgain: true } as const;

const api = (path: string) => `${config.backendUrl}${path}`;

export const apiUrls = {
  register: () => api('/register'),
  verify: () => api('/verify'),
  erase: () => api('/erase'),
  signInScopes: () => api('/erase/sign-in-scopes'),
  qrCode: (session?: string) => api(session === undefined ? '/generateQRCode' : `/generateQRCode?session=${encodeURIComponent(session)}`),
  sessions: () => api('/sessions'),
  session: (id: string) => api(`/sessions/${encodeURIComponent(id)}`),
  // EventSource cannot send a header, so the stream takes the screen's secret in its query (the
  // server keeps it out of its logs).
  sessionEvents: (id: string, secret: string) => api(`/sessions/${encodeURIComponent(id)}/events?secret=${encodeURIComponent(secret)}`),
  sessionOpen: (id: string) => api(`/sessions/${encodeURIComponent(id)}/open`),
  sessionFailure: (id: string) => api(`/sessions/${encodeURIComponent(id)}/failure`),
  sessionConfirm: (id: string) => api(`/sessions/${encodeURIComponent(id)}/confirm`),
  oprf: () => api('/oprf'),
  oprfPublicKey: () => api('/oprf/public-key'),
  oprfAdmission: () => api('/oprf/admission'),
  challenge: () => api('/challenge'),
  issuers: () => api('/issuers'),
  reservations: () => api('/reservations'),
  reservationRelease: () => api('/reservations/release'),
  members: (bucket?: string) => api(bucket === undefined ? '/members' : `/members?bucket=${encodeURIComponent(bucket)}`),
  // The credential tree's k-anonymous buckets, as /members's (decision 089).
  credentialMembers: (bucket?: string) =>
    api(bucket === undefined ? '/credential-members' : `/credential-members?bucket=${encodeURIComponent(bucket)}`),
  // With its SHA-256 in the URL an artifact may be kept for good (decision 043).
  artifactManifest: () => api('/artifacts'),
  artifact: (name: string, sha256: string) => api(`/artifacts/${name}?sha256=${sha256}`),
  // Sign in with ZeroID (decision 023): the interaction cookie's path is /signin/:uid, so these stay under it.
  signInDetails: (uid: string) => api(`/signin/${encodeURIComponent(uid)}/details`),
  signInProof: (uid: string) => api(`/signin/${encodeURIComponent(uid)}/proof`),
  signInFailure: (uid: string) => api(`/signin/${encodeURIComponent(uid)}/failure`),
  signInCancel: (uid: string) => api(`/signin/${encodeURIComponent(uid)}/cancel`),
  // On a phone (decision 029): the screen opens and finishes the session, the phone proves through it.
  signInSessions: (uid: string) => api(`/signin/${encodeURIComponent(uid)}/sessions`),
  signInSessionFinish: (uid: string, id: string) => api(`/signin/${encodeURIComponent(uid)}/sessions/${encodeURIComponent(id)}/finish`),
  phoneSignIn: (id: string) => api(`/sessions/${encodeURIComponent(id)}/sign-in`),
} as const;
