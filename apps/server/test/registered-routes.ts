import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * Every route the app registered, as `get /did/{did}`, read from `printRoutes`: without HEAD, the
 * CORS catch-all and the web build's files. Tests use it to prove a check covers every route.
 */
export function registeredRoutes(app: FastifyInstance, webDist: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('');
    if (url === '*' || existsSync(path.join(webDist, url))) continue;
    for (const method of match[3]!.split(', ')) {
      if (method !== 'HEAD') routes.push(`${method.toLowerCase()} ${url.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}
