/** What a threshold round waits for, and what it says when the nodes fail it (shared by the key checks and the rounds). */

/** How long a node may take to answer before the round goes on without it. */
export const NODE_TIMEOUT_MS = 10_000;

export const NODES_UNAVAILABLE_MESSAGE =
  'Too few of the OPRF nodes answered correctly to derive your identity. Nothing was sent; please try again shortly.';

/** Too few nodes whose keys fit together (decision 033): said apart from "too few answered", so the person knows it is not their input. */
export const NODES_INCONSISTENT_MESSAGE =
  'The OPRF nodes do not agree on their keys right now (one holds a share from before a refresh or of another split), so your identity cannot be derived safely. Nothing was sent; please try again later.';
