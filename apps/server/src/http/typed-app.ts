import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The app with TypeBox's type provider: a route's request and reply types come from its schemas, declared once. */
export const typed = (app: FastifyInstance) => app.withTypeProvider<TypeBoxTypeProvider>();

/**
 * One of two bodies, told apart by whether `field` is present: validated as JSON Schema's
 * if/then/else (so a malformed body is described against the body it meant to be, not against
 * both), typed as the union of the two.
 */
export const eitherBody = <Then extends TSchema, Else extends TSchema>(field: string, then: Then, otherwise: Else) =>
  Type.Unsafe<Static<Then> | Static<Else>>({ if: { type: 'object', required: [field] }, then, else: otherwise });
