import type { FastifyInstance } from 'fastify';
import { badRequest } from '../problem.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a request body as UTF-8, refusing invalid bytes (a truncated or overlong sequence, an
 * encoded surrogate, a byte no UTF-8 has) with a 400. Decoding them leniently would turn each into
 * U+FFFD, so different raw IDs or biometrics would become one identity. A byte-order mark is kept,
 * so JSON.parse refuses it as before.
 */
export function decodeUtf8Body(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw badRequest('INVALID_UTF8', 'The request body is not valid UTF-8.');
  }
}

/**
 * Parses a JSON request body, refusing what JSON.parse would quietly accept: duplicate keys (two
 * parsers may disagree on which one wins) and `__proto__` keys (prototype pollution). Errors never
 * quote the body: V8's own messages include a slice of the text, which could be a biometric.
 */
export function parseStrictJson(text: string): unknown {
  if (text.trim() === '') throw badRequest('EMPTY_BODY', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('INVALID_JSON', 'The request body is not valid JSON.');
  }
  assertNoDuplicateOrProtoKeys(text);
  return value;
}

/**
 * Walks the already-validated JSON text once and tracks the keys of every open object. Only
 * strings in key position are collected; a string is a key when it is followed by a colon.
 */
function assertNoDuplicateOrProtoKeys(text: string): void {
  const stack: Array<Set<string> | null> = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '{') {
      stack.push(new Set());
      i++;
    } else if (ch === '[') {
      stack.push(null);
      i++;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      i++;
    } else if (ch === '"') {
      const end = endOfString(text, i);
      const keys = stack[stack.length - 1];
      if (keys && nextNonSpace(text, end) === ':') {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
          throw badRequest('FORBIDDEN_KEY', 'The request body contains a forbidden key.');
        }
        if (keys.has(key)) throw badRequest('DUPLICATE_KEY', 'The request body repeats a key.');
        keys.add(key);
      }
      i = end;
    } else {
      i++;
    }
  }
}

/** Index just past the closing quote of the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') i += 2;
    else if (ch === '"') return i + 1;
    else i++;
  }
  return i;
}

function nextNonSpace(text: string, from: number): string | undefined {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return text[i];
}

/**
 * JSON only, parsed strictly: drops Fastify's text/plain parser and replaces its JSON parser with
 * `decodeUtf8Body` and `parseStrictJson`. Used by the server and by an OPRF node.
 */
export function acceptStrictJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseStrictJson(decodeUtf8Body(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
