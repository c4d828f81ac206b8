import { assertEnoughNodes } from '../oprf/nodes/evaluate-with-nodes.ts';
import type { OprfNodesState } from '../oprf/nodes/oprf-node-set.ts';
import { clientKey } from './client-key.ts';
import type { GuessLimits } from './create-guess-limits.ts';
import type { Admission } from './guess-budget.ts';
import type { AdmitGuess } from './spend-guess.ts';

/**
 * The client a request comes from, as the limits know it: its address (`request.ip`, which honours
 * X-Forwarded-For only through the configured trusted proxy) and the flow's reservation it carries.
 */
export interface GuessClient {
  address: string;
  reservation?: string | undefined;
}

const admitted: Admission = { releaseVerification: async () => undefined, releaseGuesses: async () => undefined };

/**
 * The one way into the guess limits: admits `client`'s request about to evaluate a cost, or throws a
 * 429 (GuessRefused), right before it evaluates (its input was checked first, so a malformed request
 * spends nothing): the client's failure throttle and guess bucket, or the flow's reservation it
 * carries, then the global budget (`GuessBudget.admit`). In threshold mode (`nodes`), a request that
 * evaluates is first refused with the evaluation's 503 when the server already knows fewer than t
 * nodes whose keys fit (`assertEnoughNodes`, decision 053): no guess is counted for an answer the
 * server knows it cannot give. A use case spends through it with `spendGuess`.
 */
export function guessAdmitter(
  limits: GuessLimits,
  client: GuessClient,
  nodes?: OprfNodesState,
  { answering = false }: { answering?: boolean } = {},
): AdmitGuess {
  return async (cost) => {
    if (nodes && cost.guesses > 0) {
      try {
        assertEnoughNodes(nodes.current, { answering });
      } catch (error) {
        // Read the keys again soon rather than at the next interval: a node may be back already.
        nodes.rereadSoon?.();
        throw error;
      }
    }
    if (limits.perMinute === 0) return admitted;
    return limits.budget.admit(clientKey(client.address, limits.ipv6Prefix), cost, client.reservation);
  };
}
