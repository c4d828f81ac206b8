import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ProtocolInputError } from '@zeroid/protocol';
import { GuessRefused } from '../limits/guess-refused.ts';
import { OprfNodesUnavailable } from '../oprf/nodes/evaluate-with-nodes.ts';
import { OprfNodesBusy } from '../oprf/nodes/node-round-queue.ts';
import { oprfUnavailable, Problem, rateLimited, unavailable } from '../problem.ts';
import { describeValidationError } from './describe-validation-error.ts';
import { replyProblem } from './reply-problem.ts';
import { isStorageFailure } from '../storage/storage-failure.ts';

/**
 * Turns every failure into `{error: {code, message}}`: a 4xx for anything a client can send, a 503
 * when storage is failing (so nothing is acknowledged that was not saved), and a 500 only for our own
 * bugs. Logs carry the error's name and code, never the request body or a message derived from it.
 */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const problem = toProblem(error);
  if (problem.statusCode >= 500 && !refusedOnPurpose(error)) {
    request.log.error({ err: { name: error.name, code: (error as FastifyError).code, stack: error.stack } }, 'request failed');
  } else if (problem.statusCode >= 500) {
    // Busy or too few OPRF nodes: the server answered as designed, so an operator sees a warning, not a stack.
    request.log.warn({ code: problem.code, statusCode: problem.statusCode }, 'request refused for now');
  } else {
    request.log.info({ code: problem.code, statusCode: problem.statusCode }, 'request rejected');
  }
  void replyProblem(reply, problem);
}

/** A 5xx our own code chose (NOISY_BUSY, OPRF_BUSY, too few OPRF nodes), as against a bug or a failing database. */
const refusedOnPurpose = (error: Error) => error instanceof Problem || error instanceof OprfNodesUnavailable;

function toProblem(error: FastifyError | Error): Problem {
  if (error instanceof Problem) return error;
  if (error instanceof GuessRefused) {
    return new Problem(429, error.code, error.message, { 'retry-after': String(error.retryAfterSeconds) });
  }
  if (error instanceof ProtocolInputError) return new Problem(400, error.code, error.message);
  if (error instanceof OprfNodesUnavailable) return oprfNodesProblem(error);

  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new Problem(400, 'INVALID_REQUEST', describeValidationError(fastifyError.validation[0], fastifyError.validationContext));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new Problem(413, 'BODY_TOO_LARGE', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new Problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new Problem(400, 'EMPTY_BODY', 'The request body is empty; send a JSON object.');
    // The URL itself: it does not decode, or one of its parts is too long. Fastify's own message
    // quotes the URL, so ours never does.
    case 'FST_ERR_BAD_URL':
      return new Problem(400, 'BAD_URL', 'The address is not a valid URL.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new Problem(414, 'URL_TOO_LONG', 'A part of the address is too long.');
    // We register no asynchronous route constraints; if one is added, a request it cannot place is
    // still the client's request, not our failure.
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new Problem(400, 'BAD_REQUEST', 'The request could not be processed.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new Problem(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
  const status = fastifyError.statusCode;
  if (status === 429) {
    return rateLimited({ what: 'requests' });
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new Problem(status, 'BAD_REQUEST', 'The request could not be processed.');
  }
  if (isStorageFailure(error)) return unavailable();
  return new Problem(500, 'INTERNAL', 'Something went wrong on our side. Please try again.');
}

/**
 * Threshold mode: fewer than t OPRF nodes gave answers that may be combined, so there is no output
 * and no verdict, and nothing was stored. A 503 the client may retry, whose code says whether too few
 * nodes answered (OPRF_UNAVAILABLE) or their keys do not fit together (OPRF_NODES_INCONSISTENT: a
 * node on an old share, or another split's; decision 033); a 429 when the nodes that refused did so
 * because this client is over its guess budget at them; `OPRF_BUSY` when the queue in front of the
 * nodes is full (decision 075).
 */
function oprfNodesProblem(error: OprfNodesUnavailable): Problem {
  if (error instanceof OprfNodesBusy) {
    // Beyond the queue in front of the nodes (decision 075): refused before anything was sent.
    return new Problem(
      503,
      'OPRF_BUSY',
      'Too many requests are waiting for the OPRF nodes right now. Nothing was saved; please try again in a moment.',
      { 'retry-after': String(error.retryAfterSeconds) },
    );
  }
  if (error.rateLimitedFor !== undefined) {
    return rateLimited({ what: 'guesses', retryAfterSeconds: error.rateLimitedFor });
  }
  if (error.code === 'OPRF_NODES_INCONSISTENT') {
    return new Problem(
      503,
      'OPRF_NODES_INCONSISTENT',
      'The OPRF nodes do not agree on their keys right now, so your identity cannot be derived safely. Nothing was saved; please try again later.',
      { 'retry-after': '30' },
    );
  }
  return oprfUnavailable(
    'Too few of the OPRF nodes answered correctly to derive your identity. Nothing was saved; please try again shortly.',
  );
}
