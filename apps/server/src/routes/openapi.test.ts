import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../test/registered-routes.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
};

let t: TestApp;
let document: Document;

beforeAll(async () => {
  t = await startTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Document>();
});
afterAll(async () => {
  await t.destroy();
});

const API_ROUTES = [
  ['post', '/register'],
  ['post', '/verify'],
  ['post', '/erase'],
  ['get', '/erase/sign-in-scopes'],
  ['get', '/issuers'],
  ['get', '/generateQRCode'],
  ['get', '/oprf/public-key'],
  ['post', '/oprf'],
  ['post', '/oprf/admission'],
  ['post', '/challenge'],
  ['post', '/reservations'],
  ['post', '/reservations/release'],
  ['get', '/members'],
  // The credential tree's buckets (decision 088).
  ['get', '/credential-members'],
  ['get', '/artifacts'],
  ['get', '/artifacts/{name}'],
  ['get', '/did/{did}'],
  ['get', '/healthz'],
  ['get', '/livez'],
  ['post', '/sessions'],
  ['get', '/sessions/{id}'],
  ['get', '/sessions/{id}/open'],
  ['post', '/sessions/{id}/failure'],
  // The screen's person confirms the phone's code (decision 035).
  ['post', '/sessions/{id}/confirm'],
  // Sign in with ZeroID (decision 023): the sign-in screen's calls.
  ['get', '/signin/{uid}/details'],
  ['post', '/signin/{uid}/proof'],
  ['post', '/signin/{uid}/cancel'],
  // Another try after a biometric that is not registered (decision 051).
  ['post', '/signin/{uid}/failure'],
  // On a phone (decision 029).
  ['post', '/signin/{uid}/sessions'],
  ['post', '/signin/{uid}/sessions/{id}/finish'],
  ['get', '/sessions/{id}/sign-in'],
  ['post', '/sessions/{id}/sign-in'],
  // The OpenID provider (decision 023): served by oidc-provider, described by hand for people.
  ['get', '/.well-known/openid-configuration'],
  ['get', '/oidc/auth'],
  ['post', '/oidc/token'],
  ['get', '/oidc/me'],
  ['get', '/oidc/jwks'],
  ['get', '/oidc/session/end'],
] as const;

/** Registered on purpose with `hide: true`: not JSON API routes (the reference itself, Prometheus text, an SSE stream). */
const HIDDEN = [
  'get /openapi.json',
  // The reference (Swagger UI, decision 044) and the old address that leads to it.
  'get /docs',
  'get /docs/static/index.html',
  'get /docs/static/swagger-initializer.js',
  'get /docs/static/theme/zeroid.css',
  'get /docs/json',
  'get /docs/yaml',
  'get /docs/',
  'get /docs/*',
  'get /api-docs',
  // The integration guide the reference links, rendered from docs/sign-in-with-zeroid.md.
  'get /docs/sign-in-with-zeroid',
  'get /docs/sign-in-with-zeroid/guide.css',
  'get /metrics',
  'get /sessions/{id}/events',
  // The OpenID provider (decision 023), described by its own discovery document.
  'get /.well-known/openid-configuration',
  'get /oidc/auth',
  'post /oidc/auth',
  'get /oidc/auth/{uid}',
  'post /oidc/token',
  'get /oidc/jwks',
  'get /oidc/me',
  'post /oidc/me',
  // RP-Initiated Logout 1.0 (decision 036).
  'get /oidc/session/end',
  'post /oidc/session/end',
  'post /oidc/session/end/confirm',
  'get /oidc/session/end/success',
];

function responseSchema(method: string, path: string): object {
  const schema = document.paths[path]?.[method]?.responses['200']?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`no 200 JSON schema for ${method} ${path}`);
  return schema;
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 and lists every API route', () => {
    expect(document.openapi).toMatch(/^3\.1/);
    for (const [method, path] of API_ROUTES) expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    // And nothing else: a new route must be added to this list, and so to the reference.
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(API_ROUTES.map(([method, path]) => `${method} ${path}`).sort());
  });

  it('documents every route the app registers, but the few hidden on purpose', () => {
    const registered = registeredRoutes(t.app, t.config.webDist);
    expect(registered).toContain('post /register');
    for (const route of HIDDEN) expect(registered, route).toContain(route);
    for (const route of registered.filter((r) => !HIDDEN.includes(r))) {
      const [method, path] = route.split(' ') as [string, string];
      expect(document.paths[path]?.[method], route).toBeDefined();
    }
  });

  it('is served as JSON and never cached', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(reply.headers['content-type']).toContain('application/json');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('validates recorded example replies, and rejects a wrong one', async () => {
    const ajv = new Ajv({ strict: false });
    // ajv-formats is CommonJS: under ESM its function sits on `default`.
    (addFormats as unknown as { default: typeof addFormats }).default(ajv);
    const examples: Array<[string, string, unknown]> = [
      ['post', '/register', { 'DID already generated': false, DID: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' }],
      ['post', '/register', { 'DID already generated': true }],
      ['post', '/verify', { 'Verification Result': 'Success' }],
      ['post', '/verify', { 'Verification Result': 'Failure' }],
      ['post', '/erase', { 'Erasure Result': 'Success' }],
      ['post', '/erase', { 'Erasure Result': 'Failure' }],
      ['post', '/challenge', (await t.app.inject({ method: 'POST', url: '/challenge' })).json()],
      ['get', '/members', (await t.app.inject({ method: 'GET', url: '/members' })).json()],
      ['get', '/oprf/public-key', (await t.app.inject({ method: 'GET', url: '/oprf/public-key' })).json()],
    ];
    for (const [method, path, example] of examples) {
      const validate = ajv.compile(responseSchema(method, path));
      expect(validate(example), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(ajv.compile(responseSchema('post', '/verify'))({ 'Verification Result': 'Maybe' })).toBe(false);
    expect(ajv.compile(responseSchema('post', '/register'))({ 'DID already generated': true, DID: 'leak' })).toBe(false);
    expect(ajv.compile(responseSchema('post', '/erase'))({ 'Erasure Result': 'Failure', DID: 'leak' })).toBe(false);
  });
});

describe('GET /docs', () => {
  it('is Swagger UI from this server, with no inline script or style, under the app’s CSP; /api-docs leads to it', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/html');
    expect(reply.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(reply.headers['content-security-policy']).toContain("style-src 'self';");
    expect(reply.body).not.toMatch(/(src|href)="https?:/);
    expect(reply.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    for (const src of reply.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const url = new URL(src[1]!, 'http://x/docs').pathname;
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const initializer = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain('"validatorUrl":null');
    // Laid out for the screen it is on, not a 980 px desktop shrunk onto a phone.
    expect(reply.body).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1">/);
    expect((await t.app.inject({ method: 'GET', url: '/docs/' })).body).toContain('<meta name="viewport"');
    const moved = await t.app.inject({ method: 'GET', url: '/api-docs' });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/docs');
  });
});

describe('the document for people', () => {
  it('gives every operation a tag of the table of contents and a summary, and describes the OpenID endpoints', () => {
    const tags = new Set((document as unknown as { tags: Array<{ name: string }> }).tags.map((tag) => tag.name));
    expect(tags.size).toBeGreaterThanOrEqual(5);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods as Record<string, { tags?: string[]; summary?: string }>)) {
        expect(operation.summary, `${method} ${path}`).toMatch(/\w/);
        expect(tags.has(operation.tags?.[0] ?? ''), `${method} ${path}`).toBe(true);
      }
    }
    expect(JSON.stringify(document.paths['/oidc/auth'])).toContain('code_challenge');
  });

  it("serves each route's guide as tags, summary and examples, never as the guide itself", () => {
    // A route hands its guide over as `x-guide` in its schema (routes/<name>.openapi.ts).
    expect(JSON.stringify(document)).not.toContain('x-guide');
    expect(document.paths['/register']?.post).toMatchObject({ tags: ['Registration and verification'], summary: 'Register an identity' });
  });

  it('speaks to a newcomer: no decision numbers in its text, and it links the integration guide', () => {
    const text = JSON.stringify(document);
    // Decision records are for the people who build ZeroID; a reader of the reference cannot follow them.
    expect(text.match(/decisions? \d+|\(\d{3}\)|dec\. \d+|issue \d+/gi) ?? []).toEqual([]);
    const info = (document as unknown as { info: { description: string } }).info.description;
    expect(info).toContain('docs/sign-in-with-zeroid.md');
  });

  it('serves the integration guide it links, readable on a phone, with no decision numbers and no inline style', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/docs/sign-in-with-zeroid' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/html');
    expect(reply.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(reply.body).toMatch(/<h1[^>]*>Sign in with ZeroID/);
    expect(reply.body).not.toMatch(/<script|<style|\sstyle=/);
    expect(reply.body.match(/decisions? \d+|\(\d{3}\)|dec\. \d+|issue \d+/gi) ?? []).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/docs/sign-in-with-zeroid/guide.css' })).statusCode).toBe(200);
  });

  it('has examples that its own schemas accept', () => {
    const ajv = new Ajv({ strict: false });
    (addFormats as unknown as { default: typeof addFormats }).default(ajv);
    type Content = Record<string, { schema?: object; examples?: Record<string, { value: unknown }> }>;
    let checked = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        methods as Record<string, { requestBody?: { content: Content }; responses: Record<string, { content?: Content }> }>,
      )) {
        const contents = [operation.requestBody?.content, ...Object.values(operation.responses).map((reply) => reply.content)];
        for (const { schema, examples } of contents.flatMap((content) => Object.values(content ?? {}))) {
          if (!schema || !examples) continue;
          const validate = ajv.compile(schema);
          for (const [name, example] of Object.entries(examples)) {
            checked++;
            expect(validate(example.value), `${method} ${path} ${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});
