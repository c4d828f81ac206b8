import { REGISTRATION_CREDENTIAL_SETUP, REGISTRATION_V3_SETUP, SIGN_IN_CREDENTIAL_SETUP } from '@zeroid/protocol/v3';
import type { OprfEvaluator } from '@zeroid/protocol';
import { treeReadiness } from '../member-tree/tree-readiness.ts';
import type { OprfNodesState } from '../oprf/nodes/oprf-node-set.ts';
import { Problem } from '../problem.ts';
import type { Storage } from '../storage/types.ts';
import type { Registry } from '../member-tree/member-tree.ts';

/** What readiness reads: the process's own state, its key or nodes, storage and the tree. */
export interface ReadinessDeps {
  lifecycle: { warmingUp: boolean; draining: boolean };
  oprf: OprfEvaluator | undefined;
  oprfNodes?: OprfNodesState | undefined;
  storage: Storage;
  registry: Registry;
}

/**
 * Whether this instance can serve identities: warmed up, not shutting down, a key or t nodes whose keys
 * fit (decision 021), storage answers and the tree is loaded. Throws a 503 Problem for the first of the
 * process's own states that is not ready, and what storage threw when it does not answer. The answer
 * also says what the v3 registration setup is (`setup`, decision 072) and the credential circuit's
 * (`credentialSetup`, decision 085) and the sign-in credential circuit's (`signInCredentialSetup`,
 * decision 087): a setup that is not final does not make the instance unready,
 * but nobody should read `ready` as "the setup is trustworthy".
 */
export async function readiness(deps: ReadinessDeps) {
  const { lifecycle, oprf, oprfNodes } = deps;
  if (lifecycle.warmingUp) throw new Problem(503, 'WARMING_UP', 'This instance is still starting.', { 'retry-after': '1' });
  if (lifecycle.draining) throw new Problem(503, 'SHUTTING_DOWN', 'This instance is shutting down.', { 'retry-after': '5' });
  // Threshold mode: not ready until t nodes have published keys that fit the group key and the
  // database (decision 021). Afterwards a node outage shows per request (503 OPRF_UNAVAILABLE),
  // and here only as `degraded` with the nodes left out (decision 033), still 200: every instance
  // shares the nodes, so taking instances out of rotation would not help.
  if (!oprf && !oprfNodes?.current) {
    throw new Problem(503, 'OPRF_NODES_UNAVAILABLE', 'Fewer OPRF nodes than the threshold have published their keys yet.', {
      'retry-after': '5',
    });
  }
  const setup = { ...REGISTRATION_V3_SETUP.state };
  const credentialSetup = { ...REGISTRATION_CREDENTIAL_SETUP.state };
  const signInCredentialSetup = { ...SIGN_IN_CREDENTIAL_SETUP.state };
  const { members, root } = await treeReadiness(deps);
  const set = oprfNodes?.current;
  const leftOut = (set?.nodes ?? []).flatMap(({ index, problem }) => (problem ? [{ index, problem }] : []));
  // Protocol v3's shares, once the nodes hold some: a node that serves v2 only is named too.
  const v3LeftOut = set?.v3 ? set.nodes.flatMap(({ index, v3Problem }) => (v3Problem ? [{ index, problem: v3Problem }] : [])) : [];
  if (leftOut.length > 0 || v3LeftOut.length > 0) {
    const nodes = { leftOut, ...(v3LeftOut.length > 0 ? { v3LeftOut } : {}) };
    return { status: 'degraded' as const, members, root, oprfNodes: nodes, setup, credentialSetup, signInCredentialSetup };
  }
  return { status: 'ready' as const, members, root, setup, credentialSetup, signInCredentialSetup };
}
