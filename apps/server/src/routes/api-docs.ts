import type { FastifyInstance } from 'fastify';

type Operation = {
  summary?: string;
  description?: string;
  requestBody?: unknown;
  parameters?: unknown;
  responses?: Record<string, unknown>;
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;

const CSS = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#14213d;line-height:1.5}
h2{margin-top:2.5rem;border-bottom:1px solid #c9d3e3}code,pre{background:#f3f5f9;border-radius:6px}pre{padding:.75rem;overflow:auto;font-size:.85rem}
.method{display:inline-block;min-width:4rem;font-weight:700;color:#1d3f8f}`;

/**
 * GET /docs: a readable API reference rendered on the server from the OpenAPI document. Plain HTML
 * and one stylesheet from this server, so it works offline and under the strict CSP.
 */
export function apiDocsRoutes(app: FastifyInstance) {
  let page: string | undefined;
  app.get('/docs/docs.css', { schema: { hide: true } }, async (_request, reply) => reply.type('text/css').send(CSS));
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    page ??= render(app.swagger() as { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>> });
    return reply.type('text/html; charset=utf-8').send(page);
  });
}

function render(document: { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>> }): string {
  const sections = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) => `<section>
<h2><span class="method">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h2>
${operation.description ? `<p>${escape(operation.description)}</p>` : ''}
${operation.parameters ? `<h3>Parameters</h3>${json(operation.parameters)}` : ''}
${operation.requestBody ? `<h3>Request body</h3>${json(operation.requestBody)}` : ''}
${operation.responses ? `<h3>Responses</h3>${json(operation.responses)}` : ''}
</section>`,
    ),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)} reference</title><link rel="stylesheet" href="/docs/docs.css"></head>
<body><main><h1>${escape(document.info.title)}</h1><p>${escape(document.info.description ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
${sections.join('\n')}
</main></body></html>`;
}
