import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { Marked, type Tokens } from 'marked';
import { replyProblem } from '../http/reply-problem.ts';
import { Problem } from '../problem.ts';

/** The guide for a site's developer, beside the API reference: the repository's markdown, as a page. */
export const GUIDE_PATH = '/docs/sign-in-with-zeroid';

// Links into the repository (../examples/…, decisions/…) lead nowhere from this server: their words
// stay, as code, so the reader can find the file in the repository. Links to the web stay links.
const marked = new Marked({
  renderer: {
    link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (/^https?:\/\//.test(href)) return `<a href="${href}">${text}</a>`;
      if (href.startsWith('#')) return `<a href="${href}">${text}</a>`;
      return `${text} <span class="in-repo">(in the repository: <code>${href.replace(/^(\.\.\/)+/, '')}</code>)</span>`;
    },
  },
});

const page = (body: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with ZeroID: the guide for a site's developer</title>
<link rel="stylesheet" href="${GUIDE_PATH}/guide.css">
</head>
<body>
<nav><a href="/docs">← The API reference</a></nav>
<main>${body}</main>
</body>
</html>`;

const CSS = `body{margin:0;background:#eef2f8;color:#14213d;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;line-height:1.55}
nav{padding:12px 16px;background:#fff;border-bottom:1px solid #c9d3e3}
nav a,main a{color:#1d3f8f}
main{max-width:52rem;margin:0 auto;padding:8px 16px 48px;overflow-wrap:anywhere}
h1,h2,h3{line-height:1.25}
pre{background:#fff;border:1px solid #c9d3e3;border-radius:8px;padding:12px;overflow-x:auto}
code{font-size:.9em}
table{display:block;overflow-x:auto;border-collapse:collapse}
td,th{border:1px solid #c9d3e3;padding:4px 8px;vertical-align:top}
.in-repo{color:#4a5568;font-size:.9em}`;

/**
 * GET /docs/sign-in-with-zeroid: docs/sign-in-with-zeroid.md, rendered, so the API reference can link
 * a site's developer to the guide from the running server. The markdown is ours (no visitor input),
 * read once; without it (a deployment that ships no docs) the route answers 404.
 */
export function integrationGuideRoutes(app: FastifyInstance, { file }: { file: URL }) {
  let html: Promise<string | undefined> | undefined;
  const rendered = () =>
    (html ??= readFile(file, 'utf8').then(
      async (markdown) => page(await marked.parse(markdown)),
      () => undefined,
    ));
  app.get(GUIDE_PATH, { schema: { hide: true } }, async (_request, reply) => {
    const body = await rendered();
    if (body === undefined) return replyProblem(reply, new Problem(404, 'NOT_FOUND', 'The guide is not part of this deployment.'));
    return reply.type('text/html; charset=utf-8').send(body);
  });
  app.get(`${GUIDE_PATH}/guide.css`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(CSS),
  );
}
