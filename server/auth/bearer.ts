/**
 * The bearer token of a request (SPEC §6, §7: "a bearer header with credentials for user and
 * account paths") and the hook that refuses a request without a valid one.
 *
 * Only the Authorization header is read, never a query field: a token in a URL ends up in logs,
 * histories and Referer headers.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/httpError.ts';
import type { AccountStore, Principal } from './accounts.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user of this request, set by requireUser (null before or without it). */
    principal: Principal | null;
  }
}

/** Tokens we issue are 43 base64url characters; anything far from that is not worth a lookup. */
const BEARER = /^Bearer ([A-Za-z0-9_-]{16,128})$/i;

function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  return BEARER.exec(header.trim())?.[1] ?? null;
}

/** One text for every refusal: it does not tell a wrong token from an expired or revoked one. */
const UNAUTHORIZED_MESSAGE = 'Not logged in, or the session has ended: log in again';

function unauthorized(reply: FastifyReply): HttpError {
  reply.header('www-authenticate', 'Bearer');
  return new HttpError(401, UNAUTHORIZED_MESSAGE);
}

/** The principal of a request with a valid token, else null. */
export async function principalOf(request: FastifyRequest, accounts: AccountStore): Promise<Principal | null> {
  const token = bearerToken(request.headers.authorization);
  return token ? accounts.authenticate(token) : null;
}

/** An onRequest hook: 401 before the body is read unless the token is valid; sets request.principal. */
export function requireUser(accounts: AccountStore) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = await principalOf(request, accounts);
    if (!principal) throw unauthorized(reply);
    request.principal = principal;
  };
}

/** The principal requireUser set (a route behind it always has one). */
export function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new HttpError(401, UNAUTHORIZED_MESSAGE);
  return request.principal;
}
