/**
 * Errors with an HTTP status. Fastify's default error handler turns them into
 * `{statusCode, error, message}` JSON (and logs 4xx at info level), so every bad input gets a
 * clear, uniform answer (STYLE.md habit 9: validate at the edge).
 */

import { MINUTE_MS, SECOND_MS } from '../../common/time.ts';

export class HttpError extends Error {
  override name = 'HttpError';

  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);

/** 429 for a limit that frees up in `waitMs`: Retry-After on the reply, "`what`: try again in N min". */
export function tooMany(reply: { header(name: string, value: string): unknown }, waitMs: number, what: string): HttpError {
  const seconds = Math.ceil(waitMs / SECOND_MS);
  reply.header('retry-after', String(seconds));
  return new HttpError(429, `${what}: try again in ${Math.ceil((seconds * SECOND_MS) / MINUTE_MS)} min`);
}

/** JSON schema of the error body, for route response schemas. */
export const ERROR_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
  },
} as const;
