import type { FastifySchemaValidationError } from 'fastify';

/**
 * A person-readable sentence for the first schema violation. It names the field (a name from our
 * schema) but never the value, since values may be biometric text.
 */
export function describeValidationError(error: FastifySchemaValidationError | undefined, context?: string): string {
  if (!error) return 'The request is not valid.';
  const where = context === 'querystring' ? 'query parameter' : 'field';
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return `The ${where} "${String(params.missingProperty)}" is required.`;
    case 'additionalProperties':
      return `The request contains a ${where} that is not allowed.`;
    case 'type':
      return field
        ? `The ${where} "${field}" must be of type ${String(params.type)}.`
        : `The request body must be a JSON ${String(params.type)}.`;
    case 'minLength':
      return `The ${where} "${field}" must not be empty.`;
    case 'maxLength':
      return `The ${where} "${field}" is too long (at most ${String(params.limit)} characters).`;
    case 'minItems':
    case 'maxItems':
      return `The ${where} "${field}" has the wrong number of items.`;
    default:
      return field ? `The ${where} "${field}" is not valid.` : 'The request is not valid.';
  }
}
