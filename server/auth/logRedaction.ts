/**
 * What the server log never holds: passwords, bearer tokens, session tokens in URLs.
 *
 * Fastify logs each request with its method and URL (not its headers or body). The URL is
 * redacted (`?token=...` and the like; common/errorReport.ts redactSecrets), and pino's redaction
 * covers the places a secret could reach a log line if code logged a request, its headers or a
 * body: authorization and cookie headers, password and token fields.
 */

import type { FastifyServerOptions } from 'fastify';
import { redactSecrets } from '../../common/errorReport.ts';

const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
  'body.password', 'body.newPassword', 'body.newPasswordConfirm', 'body.passwordConfirm', 'body.token',
  '*.password', '*.newPassword', '*.passwordConfirm', '*.token', 'password', 'token',
];

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's default request serializer, with the URL redacted. */
function serializeRequest(request: RequestLike) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactSecrets(request.url),
    host: request.host ?? request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The app's logger option with the redaction added (false stays false). */
export function loggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger as Exclude<FastifyServerOptions['logger'], boolean | undefined> & Record<string, unknown>;
  const serializers = (base.serializers ?? {}) as Record<string, unknown>;
  const redact = base.redact as string[] | { paths: string[] } | undefined;
  const paths = Array.isArray(redact) ? redact : redact?.paths ?? [];
  return {
    ...base,
    serializers: { req: serializeRequest, ...serializers },
    redact: { ...(Array.isArray(redact) || redact === undefined ? {} : redact), paths: [...new Set([...paths, ...REDACTED_PATHS])] },
  } as FastifyServerOptions['logger'];
}
