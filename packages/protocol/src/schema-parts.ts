import { Type } from '@sinclair/typebox';
import { CANONICAL_DECIMAL } from './field.ts';

/** The pieces every wire schema is built from (schemas.ts, sign-in-schemas.ts, v3/), declared once. */

/** Objects are closed: an unknown field is a 400, not silently dropped. */
export const closed = { additionalProperties: false } as const;

/** A canonical decimal (`CANONICAL_DECIMAL`), for every number on the wire. */
export const decimal = (description: string) => Type.String({ pattern: CANONICAL_DECIMAL.source, description });

/** A 64-byte Ed25519 signature, base64url without padding (86 characters). */
export const ed25519Signature = (description: string) => Type.String({ pattern: '^[A-Za-z0-9_-]{86}$', description });
