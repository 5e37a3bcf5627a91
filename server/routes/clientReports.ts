/**
 * What the client tells the server about itself (SPEC §7):
 *
 *   POST /sedlina/errors        a client error report (common/errorReport.ts): validated by its
 *                               JSON schema (unknown fields dropped), at most 16 KB (else 413),
 *                               at most 60 a minute per address (else 429 with Retry-After),
 *                               counted where the other request limits are (auth/sharedState.ts:
 *                               in memory, or in PostgreSQL across web processes);
 *                               written as one structured log line with secrets redacted (tokens
 *                               in URLs, bearer headers); 204
 *   HEAD /sedlina/ga/{code}?... a page-view beacon (sent only with analytics consent): 204. This
 *                               server keeps no analytics; the log line of the request is all.
 */

import type { FastifyInstance } from 'fastify';
import { ERROR_REPORT_SCHEMA, ERRORS_PATH, redactSecrets, type ErrorReport } from '../../common/errorReport.ts';
import { ERROR_REPORT_MAX_BYTES, ERROR_REPORTS_PER_IP_PER_MINUTE } from '../../common/limits.ts';
import { ERROR_RESPONSE_SCHEMA, HttpError } from '../http/httpError.ts';
import { memorySharedState, type SharedState } from '../auth/sharedState.ts';
import { MINUTE_MS, SECOND_MS } from '../../common/time.ts';

/** The fields of a report as logged: the report with every text redacted once more (a client may be old or hostile). */
export type LoggedErrorReport = ErrorReport;

export interface ClientReportRouteOptions {
  /** Where a report goes (default: the server log at warn level, as `clientError`). */
  logReport?: (report: LoggedErrorReport) => void;
  now?: () => number;
  reportsPerMinute?: number;
  /** Where the counts per address live (default: in this process). */
  state?: SharedState;
}

function redactReport(report: ErrorReport): LoggedErrorReport {
  const out = { ...report };
  for (const key of ['msg', 'url', 'script', 'stack'] as const) if (typeof out[key] === 'string') out[key] = redactSecrets(out[key]);
  if (Array.isArray(out.latestBcast)) out.latestBcast = out.latestBcast.map(redactSecrets);
  return out;
}

export async function clientReportRoutes(app: FastifyInstance, options: ClientReportRouteOptions = {}): Promise<void> {
  const reportsPerMinute = options.reportsPerMinute ?? ERROR_REPORTS_PER_IP_PER_MINUTE;
  const limiter = (options.state ?? memorySharedState(options.now)).limiter('error-report', reportsPerMinute, MINUTE_MS);
  const logReport = options.logReport ?? ((report: LoggedErrorReport) => app.log.warn({ clientError: report }, 'client error report'));

  app.post<{ Body: ErrorReport }>(ERRORS_PATH, {
    bodyLimit: ERROR_REPORT_MAX_BYTES,
    schema: { body: ERROR_REPORT_SCHEMA, response: { '4xx': ERROR_RESPONSE_SCHEMA } },
    // Over the limit before the body is read or validated.
    onRequest: async (request, reply) => {
      const wait = await limiter.blockedFor(request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(Math.ceil(wait / SECOND_MS)));
        throw new HttpError(429, `Too many error reports: at most ${reportsPerMinute} a minute`);
      }
      await limiter.hit(request.ip);
    },
  }, async (request, reply) => {
    logReport(redactReport(request.body));
    return reply.code(204).send();
  });

  app.head<{ Params: { code: string } }>('/sedlina/ga/:code', {
    schema: {
      params: { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' } } },
      querystring: {
        type: 'object',
        properties: {
          lang: { type: 'string', maxLength: 16 },
          screen: { type: 'string', pattern: '^[0-9]{1,5}x[0-9]{1,5}$' },
          cid: { type: 'string', maxLength: 64 },
          page: { type: 'string', maxLength: 64 },
          ref: { type: 'string', maxLength: 2000 },
          elapsed: { type: 'integer', minimum: 0 },
        },
      },
    },
  }, async (_request, reply) => reply.code(204).header('cache-control', 'no-store').send());
}
