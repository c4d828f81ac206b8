import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';

/**
 * ZeroID's colours, and a layout that stays inside a 390 px screen (long paths, schemas, examples wrap; a
 * section header puts its description under its name at full width, not in a column beside it).
 */
const THEME_CSS = `body{background:#eef2f8;color:#14213d}
.swagger-ui .wrapper{padding:0 12px;max-width:1100px}
.swagger-ui .info{margin:24px 0}
.swagger-ui .info .title{color:#1d3f8f}
.swagger-ui .opblock-tag{color:#14213d}
.swagger-ui .opblock .opblock-summary-path,.swagger-ui .opblock .opblock-summary-description{word-break:break-word}
.swagger-ui .opblock-body pre,.swagger-ui .microlight{white-space:pre-wrap!important;word-break:break-all}
.swagger-ui table{display:block;overflow-x:auto}
.swagger-ui .model-box{max-width:100%;overflow-x:auto}
.swagger-ui .scheme-container{display:none}
@media (max-width:480px){.swagger-ui .opblock .opblock-summary{flex-wrap:wrap}.swagger-ui .opblock .opblock-summary-description{flex-basis:100%;padding:4px 0 0}
.swagger-ui .responses-table thead{display:none}.swagger-ui .responses-table tr,.swagger-ui .responses-table td{display:block;width:100%}
.swagger-ui .response-col_links{display:none}.swagger-ui .response-control-media-type,.swagger-ui .response-control-examples{width:100%}
.swagger-ui select{max-width:100%}
.swagger-ui .opblock-tag{font-size:18px;flex-wrap:wrap;padding:10px 4px}.swagger-ui .info .title{font-size:28px}
.swagger-ui .opblock-tag>a{flex:1 1 0;min-width:0;overflow-wrap:anywhere}
.swagger-ui .opblock-tag small,.swagger-ui .opblock-tag>div{flex:1 0 100%;order:1;min-width:0;padding:4px 0 0;white-space:normal}}`;

/**
 * GET /docs: the API reference, rendered in the browser by Swagger UI (@fastify/swagger-ui, decision
 * 044) from the OpenAPI document. Every file comes from this server, and its page has no inline
 * script or style, so it runs under the same strict CSP as the app. /api-docs leads to it.
 */
export async function apiDocsRoutes(app: FastifyInstance) {
  // Swagger UI's page has no viewport tag, so a phone lays it out at 980 px and shrinks it; the tag is
  // added to its HTML (this plugin's pages only), unless a later version brings its own.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply, payload) => {
      if (typeof payload !== 'string' || !String(reply.getHeader('content-type')).startsWith('text/html')) return payload;
      if (payload.includes('name="viewport"')) return payload;
      return payload.replace('<meta charset="UTF-8">', `<meta charset="UTF-8">\n      ${VIEWPORT}`);
    });
    await registerSwaggerUi(docs);
  });
  app.get('/api-docs', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs', 301));
}

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

async function registerSwaggerUi(app: FastifyInstance) {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: false, // ours (security-headers.ts) applies, unchanged
    uiConfig: {
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      defaultModelExpandDepth: 3,
      displayRequestDuration: true,
      tryItOutEnabled: false,
      validatorUrl: null,
    },
    theme: { title: 'ZeroID API reference', css: [{ filename: 'zeroid.css', content: THEME_CSS }] },
  });
}
