import { Type, type Static } from '@sinclair/typebox';
import { closed } from './schema-parts.ts';
import { CANONICAL_DECIMAL } from './field.ts';
import { confirmationCode, SemaphoreProofSchema, Verdict } from './schemas.ts';
import { WireCredentialSignInProof } from './sign-in-credential/sign-in-credential-schemas.ts';

/** GET /signin/:uid/details: the site that asks, the scope to prove for, and a one-time challenge. */
export const SignInDetailsReply = Type.Object(
  {
    site: Type.Object({ name: Type.String(), host: Type.String() }, closed),
    scope: Type.String({ description: "The site's sector as a field element (signInScope)." }),
    challenge: Type.String({ description: 'A one-time challenge; the proof message is signInMessage(challenge, uid).' }),
    expiresAt: Type.String(),
    asksCredential: Type.Boolean({
      description: 'The site asked for the scope `credential`: which organisation vouches for the person’s ID.',
    }),
  },
  closed,
);

/** POST /signin/:uid/proof, and the phone's POST /sessions/:id/sign-in. */
export const SignInProofBody = Type.Object(
  {
    proof: SemaphoreProofSchema,
    challenge: Type.String({ pattern: CANONICAL_DECIMAL.source, maxLength: 77 }),
    // Only when the site asked for `credential` (decision 088): valid, the site is told the issuer;
    // absent, it is told nothing; sent when not asked, ignored.
    credentialProof: Type.Optional(WireCredentialSignInProof),
  },
  {
    ...closed,
    description: "A Semaphore v4 proof whose scope is the site's sector and whose message binds the challenge to this sign-in.",
  },
);

/** Where the browser goes next: back to the site, with a code or with error=access_denied. */
export const SignInReply = Type.Object({ redirectTo: Type.String() }, closed);

/**
 * A try that did not sign the person in (decision 051): a proof the server refused, or a biometric
 * the screen found not registered (POST /signin/:uid/failure). The sign-in waits for another try,
 * with a fresh one-time challenge; only Cancel, or the tries or the guess budget running out, sends
 * the site access_denied.
 */
export const SignInRetryReply = Type.Object(
  {
    result: Type.Literal('Failure'),
    challenge: Type.String({ description: 'A fresh one-time challenge for the next try.' }),
    expiresAt: Type.String(),
  },
  closed,
);

/** POST /signin/:uid/proof: back to the site on Success, another try on Failure. */
export const SignInProofReply = Type.Union([SignInReply, SignInRetryReply]);

export type SignInDetailsReply = Static<typeof SignInDetailsReply>;
export type SignInProofBody = Static<typeof SignInProofBody>;
export type SignInReply = Static<typeof SignInReply>;
export type SignInRetryReply = Static<typeof SignInRetryReply>;
export type SignInProofReply = Static<typeof SignInProofReply>;

/** The sign-in screen's routes for a phone session: POST /signin/:uid/sessions/:id/finish (decision 029). */
export const SignInSessionParams = Type.Object(
  { uid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), id: Type.String({ pattern: '^[0-9a-f]{32}$' }) },
  closed,
);

/**
 * GET /sessions/:id/sign-in, for the phone that opened a sign-in session's QR code (decision 029):
 * the site that asks (which the phone names), the scope of its sector, a one-time challenge, and the
 * authorization request's interaction id, to which the proof's message binds the challenge
 * (signInMessage(challenge, uid)), exactly as on the sign-in screen itself.
 */
export const PhoneSignInDetailsReply = Type.Object(
  { ...SignInDetailsReply.properties, uid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) },
  closed,
);

/** POST /sessions/:id/sign-in: whether the phone's proof was accepted. The sign-in screen then returns to the site. */
export const PhoneSignInReply = Type.Object(
  {
    session: Type.String(),
    result: Verdict,
    confirmationCode: Type.Optional(
      confirmationCode('With a Success: the phone shows it, and the person types it on the sign-in screen to finish.'),
    ),
  },
  closed,
);

/**
 * POST /signin/:uid/sessions/:id/finish: the code the person read on their phone, when the phone
 * succeeded (decision 035); none when it failed.
 */
export const SignInFinishBody = Type.Object({ code: Type.Optional(confirmationCode('the code the phone showed')) }, closed);
export type SignInFinishBody = Static<typeof SignInFinishBody>;

export type SignInSessionParams = Static<typeof SignInSessionParams>;
export type PhoneSignInDetailsReply = Static<typeof PhoneSignInDetailsReply>;
export type PhoneSignInReply = Static<typeof PhoneSignInReply>;
