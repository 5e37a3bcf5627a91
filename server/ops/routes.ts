/**
 * Operations routes, for load balancers, orchestrators and Prometheus (issue 17 "Operations"):
 *
 *   GET /healthz   alive: 200 while the process answers at all (a liveness probe restarts it otherwise)
 *   GET /readyz    ready for traffic: 200 when every readiness check passes (the database answers,
 *                  the storage is reachable, a product is served: see ReadinessCheck), else 503 with
 *                  the check that failed; 503 too from the moment a graceful shutdown starts, so the
 *                  load balancer stops sending before the process stops taking requests
 *   GET /metrics   Prometheus text exposition (server/ops/metrics.ts). With ISOBAR_METRICS_TOKEN set
 *                  it needs `Authorization: Bearer <token>`; without, only non-public addresses
 *                  (loopback, private networks: a scraper beside the server) get it
 *
 * Every request is counted in isobar_http_requests_total and timed in
 * isobar_http_request_duration_seconds by its route pattern (a request no route matched counts as
 * `unmatched`, so that scans of random paths cannot grow the label set). None of these answers is
 * cached or compressed, and none of them is logged per request (probes come every few seconds).
 */

import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nonPublicRange } from '../alerts/pushEndpoint.ts';
import { httpDuration, httpRequests, scrape } from './metrics.ts';

/** One thing /readyz checks: resolves with a short status line when fine, rejects when not. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<string>;
}

export interface OpsRouteOptions {
  checks: readonly ReadinessCheck[];
  /** True from the moment a graceful shutdown starts (server/ops/shutdown.ts). */
  draining: () => boolean;
  /** Bearer token for /metrics (ISOBAR_METRICS_TOKEN); null: non-public addresses only. */
  metricsToken: string | null;
}

/** A readiness check that has not answered in this time has failed (the probe itself times out soon after). */
export const READINESS_CHECK_TIMEOUT_MS = 2000;
/** The longest failure message /readyz repeats; the full error goes to the log. */
const MAX_REASON_CHARS = 160;
/** Paths whose requests are not logged one by one (probes and scrapes). */
export const QUIET_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** ISOBAR_METRICS_TOKEN, trimmed; unset or empty: null. */
export function metricsTokenFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.ISOBAR_METRICS_TOKEN?.trim() || null;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const text = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

/**
 * Registers the routes and the request metrics on `app` itself (call it, do not app.register it:
 * the metrics hook must see every route of the server, not those of a plugin scope).
 */
export function registerOps(app: FastifyInstance, options: OpsRouteOptions): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    httpRequests.inc({ method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
  });

  const compress = false;
  app.get('/healthz', { compress, logLevel: 'warn' }, async (_request, reply) => {
    return noStore(reply).send({ status: 'alive', uptimeS: Math.round(process.uptime()) });
  });

  app.get('/readyz', { compress, logLevel: 'warn' }, async (request, reply) => {
    noStore(reply);
    if (options.draining()) return reply.code(503).send({ status: 'shutting down' });
    const results = await Promise.all(options.checks.map(async ({ name, check }) => {
      try {
        return { name, ok: true, detail: await withTimeout(check(), READINESS_CHECK_TIMEOUT_MS) };
      } catch (error) {
        request.log.warn({ err: error, check: name }, 'readiness check failed');
        return { name, ok: false, detail: reasonOf(error) };
      }
    }));
    const ready = results.every((r) => r.ok);
    const checks = Object.fromEntries(results.map((r) => [r.name, r.ok ? `ok: ${r.detail}` : `failed: ${r.detail}`]));
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });

  app.get('/metrics', { compress, logLevel: 'warn' }, async (request, reply) => {
    noStore(reply);
    const allowed = options.metricsToken !== null
      ? tokenMatches(request.headers.authorization, options.metricsToken)
      : nonPublicRange(request.ip) !== null;
    if (!allowed) {
      const hint = options.metricsToken !== null ? 'a valid bearer token (ISOBAR_METRICS_TOKEN)' : 'a request from a non-public address, or ISOBAR_METRICS_TOKEN';
      return reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: `Metrics need ${hint}` });
    }
    const { contentType, body } = await scrape();
    return reply.type(contentType).send(body);
  });
}
