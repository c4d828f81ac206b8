import type { TestApp } from '../test-app.ts';

/** Where a request goes: a running server (anything with its `url`, read at call time) or a base URL. */
export type Target = string | { url: string };

/** POSTs `body` as JSON to `route` on `target`; the fetch Response as it came. */
export function post(target: Target, route: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const base = typeof target === 'string' ? target : target.url;
  return fetch(base + route, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** A JSON answer: any fields, and `error` when it is a refusal (`{error:{code,message}}`). */
export type Answer = Record<string, unknown> & { error?: { code: string; message: string } };

/** POSTs as `post` does and reads the answer: its status and JSON body. */
export async function postJson<Body = Answer>(
  target: Target,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Body }> {
  const response = await post(target, route, body, headers);
  return { status: response.status, body: (await response.json()) as Body };
}

/** POSTs `payload` (an object as JSON, a string as it is) to an in-process test app, without a socket. */
export const injectPost = (t: TestApp, route: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: route, payload: payload as object, headers: { 'content-type': 'application/json' } });
