import { Type, type Static } from '@sinclair/typebox';
import { CONFIRMATION_CODE, DID_ALREADY_GENERATED, ERASURE_RESULT, REPLACED_DID, VERIFICATION_RESULT } from './messages.ts';
import { DID_KEY_PATTERN } from './did-key.ts';
import { closed, decimal, ed25519Signature } from './schema-parts.ts';
import { MAX_INPUT_BYTES } from './normalise-input.ts';
import { OprfV3KeyInfo, V3SuiteField } from './v3/key-info.ts';

/**
 * Every request and reply on the wire, declared once. The server validates with these, the web app
 * types its calls with them, and the OpenAPI document is generated from them. Objects are closed
 * (`additionalProperties: false`): an unknown field is a 400, not silently dropped.
 */

// Characters here, bytes after normalisation (`normaliseInput`): the same 16 KiB bound, checked twice.
const rawText = (description: string) => Type.String({ minLength: 1, maxLength: MAX_INPUT_BYTES, description });

export const RawRegisterBody = Type.Object(
  { id_info: rawText('The ID, as typed or pasted.'), bio_info: rawText('The biometric text, as typed or pasted.') },
  { ...closed, description: "The specification's raw registration body; the server derives on the client's behalf." },
);

/** A cross-device verification session: 32 lowercase hex characters, shown only in its QR code. */
const sessionId = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'a cross-device verification session, from POST /sessions' });

export const RawVerifyBody = Type.Object(
  { bio_info: rawText('The biometric text, as typed or pasted.'), session: Type.Optional(sessionId) },
  { ...closed, description: "The specification's raw verification body." },
);

export const RegistrationSignaturesSchema = Type.Object(
  {
    semaphore: Type.Object(
      {
        publicKey: Type.Tuple([decimal('x'), decimal('y')]),
        signature: Type.Object({ R8: Type.Tuple([decimal('x'), decimal('y')]), S: decimal('S') }, closed),
      },
      closed,
    ),
    did: ed25519Signature('base64url Ed25519 signature'),
  },
  closed,
);

export const ZkRegisterBody = Type.Object(
  {
    commitment: decimal('Semaphore identity commitment'),
    idTag: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'HKDF(oprf(id)), hex' }),
    did: Type.String({ pattern: DID_KEY_PATTERN }),
    challenge: decimal('an unused challenge from POST /challenge'),
    signatures: RegistrationSignaturesSchema,
  },
  { ...closed, description: 'Zero-knowledge registration: derived values and proof of possession of both keys.' },
);

export const RegisterReply = Type.Union([
  // A move from protocol v2 (decision 073): the new DID, and the v2 one it replaced (now deactivated).
  Type.Object({ [DID_ALREADY_GENERATED]: Type.Literal(false), DID: Type.String(), [REPLACED_DID]: Type.String() }, closed),
  Type.Object({ [DID_ALREADY_GENERATED]: Type.Literal(false), DID: Type.String() }, closed),
  Type.Object({ [DID_ALREADY_GENERATED]: Type.Literal(true) }, closed),
]);

export const RawEraseBody = Type.Object(
  { id_info: rawText('The ID, as typed or pasted.'), bio_info: rawText('The biometric text, as typed or pasted.') },
  { ...closed, description: "Raw erasure: the server derives on the client's behalf, erases, and drops the raw values." },
);

/** A verification's (or an erasure's) verdict, the specification's two words. */
export const Verdict = Type.Union([Type.Literal('Success'), Type.Literal('Failure')]);
export type Verdict = Static<typeof Verdict>;

export const SemaphoreProofSchema = Type.Object(
  {
    merkleTreeDepth: Type.Integer({ minimum: 1, maximum: 32 }),
    merkleTreeRoot: decimal('a root from the root history'),
    nullifier: decimal('nullifier'),
    message: decimal('the challenge'),
    scope: decimal('the challenge'),
    points: Type.Array(decimal('coordinate'), { minItems: 8, maxItems: 8 }),
  },
  closed,
);

/** The most sectors (clients, or shared sector documents) an erasure proves its pseudonyms at. */
export const MAX_SIGN_IN_SECTORS = 256;

/** GET /erase/sign-in-scopes: the scope of every registered sector (decision 048). */
export const SignInScopesReply = Type.Object(
  { scopes: Type.Array(decimal('a sector scope'), { maxItems: MAX_SIGN_IN_SECTORS }) },
  { ...closed, description: 'The scope of every sector a zero-knowledge erasure proves its pseudonym at.' },
);

export const ZkEraseBody = Type.Object(
  {
    commitment: decimal('Semaphore identity commitment'),
    did: ZkRegisterBody.properties.did,
    idProof: Type.String({ pattern: '^[A-Za-z0-9_-]{86}$', description: 'oprf(id), base64url: its HKDF is the ID tag' }),
    challenge: decimal('an unused challenge from POST /challenge'),
    signatures: RegistrationSignaturesSchema,
    signInProofs: Type.Array(SemaphoreProofSchema, {
      maxItems: MAX_SIGN_IN_SECTORS,
      description:
        "one Semaphore proof per sector of GET /erase/sign-in-scopes: a group of the erased commitment alone (depth 1, root = commitment), message = this erasure's challenge, scope = the sector's. Each nullifier is the person's pseudonym at that sector, whose sign-in records and tokens the erasure deletes; the secret never leaves the device",
    }),
  },
  { ...closed, description: "Zero-knowledge erasure: derived values, the ID tag's OPRF output and proof of possession of both keys." },
);

/** Same status and shape as a verification: a failed erasure says no more than a failed verification. */
export const EraseReply = Type.Object({ [ERASURE_RESULT]: Verdict }, closed);

export const ZkVerifyBody = Type.Object(
  { proof: SemaphoreProofSchema, session: Type.Optional(sessionId) },
  { ...closed, description: 'A Semaphore v4 proof whose message and scope are an unused challenge.' },
);

/** Six digits the completing phone shows and the screen's person types (decision 035). */
export const confirmationCode = (description: string) => Type.String({ pattern: '^[0-9]{6}$', description });

export const VerifyReply = Type.Object(
  {
    [VERIFICATION_RESULT]: Verdict,
    [CONFIRMATION_CODE]: Type.Optional(
      confirmationCode(
        'Only when this verification completed a cross-device session: show it, for the person to type on the other screen.',
      ),
    ),
  },
  closed,
);

export const ErrorReply = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }, closed) }, closed);

export const OprfRequest = Type.Object(
  {
    element: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,128}$',
      description: 'base64url of a serialized EvaluationRequest with one element (v2), or of one 32-byte point (v3)',
    }),
    suite: Type.Optional(V3SuiteField),
  },
  closed,
);
export const OprfReply = Type.Object(
  { evaluation: Type.String({ description: 'base64url of the serialized Evaluation with its DLEQ proof' }) },
  closed,
);
export const OprfKeyReply = Type.Object(
  {
    suite: Type.String(),
    publicKey: Type.String({ description: "base64url; in threshold mode the group key K, which the nodes' Kᵢ interpolate to" }),
    threshold: Type.Optional(Type.Integer({ minimum: 2, description: 'threshold mode only: how many nodes must answer (t)' })),
    nodes: Type.Optional(
      Type.Array(Type.String({ description: 'a node base URL' }), {
        description: 'threshold mode only: the OPRF nodes in share order (the first holds share 1); POST /oprf goes to them',
      }),
    ),
    v3: Type.Optional(OprfV3KeyInfo),
    admissionKey: Type.Optional(
      Type.String({
        description: "threshold mode only: base64url of this server's Ed25519 admission key, which each node lists in ADMISSION_KEYS",
      }),
    ),
  },
  closed,
);

export const ChallengeReply = Type.Object(
  { challenge: decimal('one-time challenge, a field element'), expiresAt: Type.String({ format: 'date-time' }) },
  closed,
);

export const MembersQuery = Type.Object({ bucket: Type.Optional(Type.String({ pattern: '^[0-9a-f]{0,4}$' })) }, closed);

export const MemberWithProof = Type.Object(
  {
    commitment: decimal('commitment'),
    leafIndex: Type.Integer({ minimum: 0 }),
    proofIndex: Type.Integer({ minimum: 0, description: 'LeanIMT proof index (path bits)' }),
    siblings: Type.Array(decimal('sibling')),
  },
  closed,
);

export const MembersReply = Type.Object(
  {
    size: Type.Integer({ minimum: 0 }),
    depth: Type.Integer({ minimum: 1, maximum: 32 }),
    root: decimal('current root'),
    bucketHexChars: Type.Integer({ minimum: 0, maximum: 4 }),
    bucket: Type.Optional(Type.String()),
    members: Type.Optional(Type.Array(MemberWithProof)),
  },
  closed,
);

export const SessionReply = Type.Object(
  {
    session: sessionId,
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('awaiting-code'), Type.Literal('success'), Type.Literal('failure'), Type.Literal('expired')],
      {
        description:
          "'awaiting-code': a phone verified, and the screen's person must type the code it shows (POST /sessions/:id/confirm); " +
          "'success' only once they have: a screen that moves on at 'awaiting-code' can be swapped.",
      },
    ),
    expiresAt: Type.String({ format: 'date-time' }),
    phoneConnected: Type.Optional(
      Type.Literal(true, {
        description:
          'Present while the session is pending once a phone has opened its link (a hint for the screen, seen by every process).',
      }),
    ),
  },
  closed,
);
export const CreatedSessionReply = Type.Object(
  {
    ...SessionReply.properties,
    secret: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description:
        'Shown once: the creating screen keeps it and sends it to read the outcome (header Session-Secret, or ?secret= for the event stream). Never put it in the QR code.',
    }),
    link: Type.String({
      format: 'uri',
      description:
        'The link the QR code holds (PUBLIC_URL/user-verification?session=…), for the screen to show as text: a phone can open it without a camera.',
    }),
  },
  closed,
);
/** What a phone holding only the QR link may learn: whether the session still waits, not its outcome. */
export const SessionOpenReply = Type.Object(
  {
    session: sessionId,
    open: Type.Boolean(),
    expiresAt: Type.String({ format: 'date-time' }),
    signIn: Type.Optional(
      Type.Object(
        {
          site: Type.Object({ name: Type.String(), host: Type.String() }, closed),
          asksCredential: Type.Boolean({
            description: 'The site asked for the scope `credential`: the phone says so before anything is typed.',
          }),
        },
        { ...closed, description: 'Present when the session finishes a "Sign in with ZeroID" at this site.' },
      ),
    ),
  },
  closed,
);
export const SessionParams = Type.Object({ id: Type.String() }, closed);
export const SessionSecretHeaders = Type.Object({ 'session-secret': Type.Optional(Type.String({ maxLength: 64 })) });
/** POST /sessions/:id/confirm, by the screen holding the secret: the code its person read on the phone (decision 035). */
export const SessionConfirmBody = Type.Object({ code: confirmationCode('the code the phone showed') }, closed);
export const SessionConfirmReply = Type.Object(
  {
    session: sessionId,
    confirmed: Type.Boolean(),
    attemptsLeft: Type.Integer({ minimum: 0, description: 'Wrong codes that may still be typed; at 0 the session has failed.' }),
  },
  closed,
);
export const SessionEventsQuery = Type.Object({ secret: Type.Optional(Type.String({ maxLength: 64 })) }, closed);
export const QrCodeQuery = Type.Object({ session: Type.Optional(sessionId) }, closed);

export type SessionReply = Static<typeof SessionReply>;
export type CreatedSessionReply = Static<typeof CreatedSessionReply>;
export type SessionOpenReply = Static<typeof SessionOpenReply>;
export type SessionConfirmBody = Static<typeof SessionConfirmBody>;
export type SessionConfirmReply = Static<typeof SessionConfirmReply>;
export type RawRegisterBody = Static<typeof RawRegisterBody>;
export type RawVerifyBody = Static<typeof RawVerifyBody>;
export type ZkRegisterBody = Static<typeof ZkRegisterBody>;
export type ZkVerifyBody = Static<typeof ZkVerifyBody>;
export type RegisterReply = Static<typeof RegisterReply>;
export type VerifyReply = Static<typeof VerifyReply>;
export type RawEraseBody = Static<typeof RawEraseBody>;
export type ZkEraseBody = Static<typeof ZkEraseBody>;
export type EraseReply = Static<typeof EraseReply>;
export type ErrorReply = Static<typeof ErrorReply>;
export type OprfReply = Static<typeof OprfReply>;
export type OprfKeyReply = Static<typeof OprfKeyReply>;
export type ChallengeReply = Static<typeof ChallengeReply>;
export type MembersReply = Static<typeof MembersReply>;
export type { Static };
