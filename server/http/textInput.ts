/**
 * Text in requests never holds a NUL character (U+0000): PostgreSQL's text type cannot store it
 * (a 500 there, a different answer on SQLite), and no field of Isobar's has a use for it. Every
 * string of a request — path and query parameters, and every string and key of a JSON body at any
 * depth — is checked once at the edge, before the route's own validation, and a request with one is
 * a 400 that names where it was; nothing is stored.
 */

import type { FastifyInstance } from 'fastify';
import { badRequest } from './httpError.ts';

/** Where in a value the first NUL character is ('' for the value itself), or null when none. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}/${key.replaceAll('\u0000', '\\u0000')}`;
    const found = findNul(item, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

/** Refuses requests whose parameters, query or body hold a NUL character, on every route of `app`. */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
      const found = findNul(value);
      if (found !== null) throw badRequest(`${part}${found} holds a NUL character (U+0000), which no text field accepts`);
    }
  });
}
