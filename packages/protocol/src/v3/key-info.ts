import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../schema-parts.ts';
import { SUITE_ID } from './oprf-suite.ts';

// Protocol v3's keys and selector on the wire (decision 056): imported by the v2 schemas, so this
// file imports none of them.

/** One encoded Baby Jubjub point (`encodePoint`): 32 bytes, base64url without padding. */
export const V3Point = (description: string) => Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description });
/** One evaluation with its DLEQ proof (`encodeEvaluation`): 96 bytes, base64url without padding. */
export const V3Evaluation = (description: string) => Type.String({ pattern: '^[A-Za-z0-9_-]{128}$', description });

/** The `suite` field that selects protocol v3 wherever the v2 body had none (POST /oprf, nodes, admissions). */
export const V3SuiteField = Type.Literal(SUITE_ID, { description: `protocol v3 (${SUITE_ID}); absent: the v2 ristretto255 suite` });

/** GET /oprf/public-key's `v3` (server), in threshold mode the v3 group key (same nodes and threshold as v2). */
export const OprfV3KeyInfo = Type.Object(
  {
    suite: Type.Literal(SUITE_ID),
    publicKey: V3Point('K = k·G (single key) or the v3 group key the nodes’ v3 Kᵢ interpolate to (threshold mode)'),
  },
  { ...closed, description: 'Protocol v3: the key every registration since v3 is proven against.' },
);
export type OprfV3KeyInfo = Static<typeof OprfV3KeyInfo>;

/** GET /oprf/public-key's `v3` on an OPRF node: its v3 share's Kᵢ and the v3 group key. */
export const OprfNodeV3KeyInfo = Type.Object(
  {
    suite: Type.Literal(SUITE_ID),
    publicKey: V3Point('Kᵢ = kᵢ·G of this node’s v3 share'),
    groupPublicKey: V3Point('the v3 group key K'),
  },
  closed,
);
export type OprfNodeV3KeyInfo = Static<typeof OprfNodeV3KeyInfo>;
