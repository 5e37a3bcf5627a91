/**
 * Errors with an HTTP status. Fastify's default error handler turns them into
 * `{statusCode, error, message}` JSON (and logs 4xx at info level), so every bad input gets a
 * clear, uniform answer (STYLE.md habit 9: validate at the edge).
 */

export class HttpError extends Error {
  override name = 'HttpError';

  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);

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
