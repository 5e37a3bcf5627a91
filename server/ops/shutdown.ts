/**
 * Graceful shutdown (issue 17 "Operations"): on SIGTERM or SIGINT the server
 *   1. says it is draining: /readyz answers 503, so a load balancer that checks it stops sending;
 *   2. waits ISOBAR_SHUTDOWN_DELAY_MS (default 0: a lone server has nobody to warn; behind a load
 *      balancer set it to a little more than the balancer's health-check interval times its fall count);
 *   3. closes: Fastify stops accepting connections, answers requests that still arrive on open
 *      keep-alive connections with 503 and `Connection: close` (a balancer retries them elsewhere),
 *      lets the requests in flight finish, and runs the onClose hooks, which stop the live sources,
 *      release the jobs this process holds and close the database;
 *   4. exits 0; or 1 when closing took longer than ISOBAR_SHUTDOWN_TIMEOUT_MS (default 15 s) or failed.
 * A second signal while shutting down exits at once.
 */

import type { FastifyInstance } from 'fastify';
import { SECOND_MS } from '../../common/time.ts';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 15 * SECOND_MS;

export interface ShutdownTimings {
  delayMs: number;
  timeoutMs: number;
}

function nonNegativeMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of milliseconds >= 0, not ${JSON.stringify(text)}`);
  return value;
}

export function shutdownTimingsFromEnv(env: NodeJS.ProcessEnv = process.env): ShutdownTimings {
  return {
    delayMs: nonNegativeMs(env, 'ISOBAR_SHUTDOWN_DELAY_MS', 0),
    timeoutMs: nonNegativeMs(env, 'ISOBAR_SHUTDOWN_TIMEOUT_MS', DEFAULT_SHUTDOWN_TIMEOUT_MS),
  };
}

/** The draining flag /readyz reads, and the shutdown that sets it. */
export class Shutdown {
  private started: Promise<number> | null = null;

  constructor(private readonly timings: ShutdownTimings) {}

  get draining(): boolean {
    return this.started !== null;
  }

  /** Drains and closes `app`; resolves with the exit code (0 closed in time, 1 not). Called twice, the same promise. */
  begin(app: FastifyInstance, reason: string): Promise<number> {
    this.started ??= (async () => {
      const { delayMs, timeoutMs } = this.timings;
      app.log.info({ reason, delayMs, timeoutMs }, 'shutting down: draining');
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<number>((resolve) => {
        timer = setTimeout(() => {
          app.log.error({ timeoutMs }, 'shutting down: closing took too long; exiting anyway');
          resolve(1);
        }, timeoutMs);
      });
      const closed = app.close().then(() => {
        app.log.info('shutting down: closed');
        return 0;
      }, (error: unknown) => {
        app.log.error({ err: error }, 'shutting down: closing failed');
        return 1;
      });
      return Promise.race([closed, timedOut]).finally(() => clearTimeout(timer));
    })();
    return this.started;
  }
}

/** Exits the process through `shutdown` on SIGTERM/SIGINT; a second signal exits at once. */
export function exitOnSignals(app: FastifyInstance, shutdown: Shutdown): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (shutdown.draining) {
        app.log.warn({ signal }, 'second signal while shutting down: exiting now');
        process.exit(1);
      }
      void shutdown.begin(app, signal).then((code) => process.exit(code));
    });
  }
}
