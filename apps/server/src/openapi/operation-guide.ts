import type { Tag } from './tags.ts';

export type Examples = Record<string, { summary: string; value: unknown }>;

/**
 * What one operation is for, for people reading the reference: its section (tag), a summary, and
 * examples of its body and replies. A route hands its guide to the document as `'x-guide'` in its
 * own schema, so the guide is found by the route and never by a second spelling of its path;
 * `register-openapi.ts` takes it out of the document again and writes its parts where OpenAPI wants them.
 */
export interface OperationGuide {
  tag: Tag;
  summary: string;
  /** Used where the route's schema has no description of its own. */
  description?: string;
  request?: Examples;
  /** By status code. */
  replies?: Record<string, Examples>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** This operation's guide: read by `register-openapi.ts`, never served as it is. */
    'x-guide'?: OperationGuide;
  }
}
