import type { FastifyInstance } from 'fastify';
import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import { OIDC_PATHS } from './oidc-paths.ts';
import type { OperationGuide } from './operation-guide.ts';
import { TAGS } from './tags.ts';

type Operation = {
  'x-guide'?: OperationGuide;
  tags?: string[];
  summary?: string;
  description?: string;
  requestBody?: { content?: Record<string, { examples?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { examples?: unknown }> }>;
};
type Document = { paths?: Record<string, Record<string, Operation>> };

/**
 * The OpenAPI 3.1 document, generated from the route schemas (themselves the TypeBox schemas of
 * `@zeroid/protocol`), so the reference can never drift from what the server validates. For people
 * it adds a table of contents (`tags.ts`), each operation's summary and examples (the guide its route
 * gives in its schema as `'x-guide'`, from the route's own `routes/<name>.openapi.ts`), and the OpenID
 * provider's endpoints, which oidc-provider serves outside the schemas (`oidc-paths.ts`).
 * Register before the routes: the plugin collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, { publicUrl }: { publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ZeroID API',
        version: '1.0.0',
        description:
          'Register an identity and prove membership with a Semaphore v4 zero-knowledge proof. The raw ID and biometric never need to leave the client. Errors are JSON `{"error": {"code", "message"}}` with a 4xx status; limited routes answer 429 with `Retry-After`. Machine-readable: [/openapi.json](/openapi.json).\n\n' +
          '**Signing people in at your site?** ZeroID is an OpenID Connect provider: read [the guide for a site’s developer](/docs/sign-in-with-zeroid) (`docs/sign-in-with-zeroid.md` in the repository), with a working example site in `examples/relying-party`.',
      },
      servers: [{ url: publicUrl }],
      tags: [...TAGS],
    },
    hideUntagged: false,
    transformObject: ((documents) => {
      if (!('openapiObject' in documents)) return documents.swaggerObject;
      forReaders(documents.openapiObject as Document);
      return documents.openapiObject;
    }) satisfies SwaggerTransformObject,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

function forReaders(document: Document): void {
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      // @fastify/swagger copies a schema's `x-` keys into its operation: the guide is read here and
      // never served as it is.
      const guide = operation['x-guide'];
      if (!guide) continue;
      delete operation['x-guide'];
      operation.tags = [guide.tag];
      operation.summary = guide.summary;
      operation.description ??= guide.description;
      const body = operation.requestBody?.content?.['application/json'];
      if (body && guide.request) body.examples = guide.request;
      for (const [status, examples] of Object.entries(guide.replies ?? {})) {
        operation.responses ??= {};
        const reply = (operation.responses[status] ??= {
          description: status === '429' ? 'Too many requests or guesses: wait Retry-After seconds' : 'Reply',
        });
        reply.content ??= { 'application/json': {} };
        const json = reply.content['application/json'];
        if (json) json.examples = examples;
      }
    }
  }
  document.paths = { ...document.paths, ...(OIDC_PATHS as unknown as Document['paths']) };
}
