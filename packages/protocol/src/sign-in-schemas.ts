import { Type, type Static } from '@sinclair/typebox';
import { SemaphoreProofSchema } from './schemas.ts';

const closed = { additionalProperties: false } as const;

/** GET /signin/:uid/details: the site that asks, the scope to prove for, and a one-time challenge. */
export const SignInDetailsReply = Type.Object(
  {
    site: Type.Object({ name: Type.String(), host: Type.String() }, closed),
    scope: Type.String({ description: "The site's sector as a field element (signInScope)." }),
    challenge: Type.String({ description: 'A one-time challenge; the proof message is signInMessage(challenge, uid).' }),
    expiresAt: Type.String(),
  },
  closed,
);

/** POST /signin/:uid/proof. */
export const SignInProofBody = Type.Object(
  { proof: SemaphoreProofSchema, challenge: Type.String({ pattern: '^(0|[1-9][0-9]{0,76})$', maxLength: 77 }) },
  {
    ...closed,
    description: "A Semaphore v4 proof whose scope is the site's sector and whose message binds the challenge to this sign-in.",
  },
);

/** Where the browser goes next: back to the site, with a code or with error=access_denied. */
export const SignInReply = Type.Object({ redirectTo: Type.String() }, closed);

export type SignInDetailsReply = Static<typeof SignInDetailsReply>;
export type SignInProofBody = Static<typeof SignInProofBody>;
export type SignInReply = Static<typeof SignInReply>;
