/**
 * Request ids for structured logs (issue 17 "Operations"): every log line Fastify writes for a
 * request carries `reqId`, and the answer carries it back in `X-Request-Id`, so a user's report, the
 * load balancer's log and each server's log can be joined. A load balancer that sets X-Request-Id
 * (nginx `$request_id`, haproxy `unique-id-header`) has its id kept; anything else gets a new UUID.
 * An incoming id is kept only when it is short and plain (letters, digits, `-`, `_`, `.`, `:`), so
 * that a client cannot write arbitrary text into the logs through it.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the caller's plain X-Request-Id, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && PLAIN_ID.test(given) ? given : randomUUID();
}

/** Sends every request's id back in X-Request-Id. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
