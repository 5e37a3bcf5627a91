import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { registerOps, type ReadinessCheck } from './routes.ts';
import { echoRequestId, requestIdOf } from './requestId.ts';
import { Shutdown, shutdownTimingsFromEnv } from './shutdown.ts';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function bare(checks: ReadinessCheck[], options: { draining?: () => boolean; metricsToken?: string | null } = {}): FastifyInstance {
  const app = Fastify({ genReqId: requestIdOf, requestIdHeader: false });
  echoRequestId(app);
  registerOps(app, { checks, draining: options.draining ?? (() => false), metricsToken: options.metricsToken ?? null });
  app.get('/tiles/:z', async () => ({ ok: true }));
  apps.push(app);
  return app;
}

describe('the operations routes of the server', () => {
  it('are alive, ready and counted on the real app', async () => {
    const app = await buildApp({ dataDir: null, distDir: null, prewarm: false, liveSources: null, obs: { sources: [] }, accounts: { database: { kind: 'sqlite', path: ':memory:' } } });
    apps.push(app);
    expect((await app.inject('/healthz')).json()).toMatchObject({ status: 'alive' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok: sqlite', storage: 'ok: none (demo product only)', products: expect.stringMatching(/^ok: demo/) },
    });
    await app.inject('/metadata/v1.0/no-such-product/minifest.json');
    const metrics = await app.inject('/metrics');
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.body).toMatch(/isobar_http_requests_total\{method="GET",route="\/metadata\/v1.0\/:dir\/minifest.json",status="404"\} [1-9]/);
    expect(metrics.body).toMatch(/isobar_process_resident_memory_bytes \d+/);
  });

  it('answer 503 with the failed check, and while draining', async () => {
    let draining = false;
    const app = bare([
      { name: 'database', check: async () => 'postgres' },
      { name: 'storage', check: () => Promise.reject(Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' })) },
    ], { draining: () => draining });
    const failed = await app.inject('/readyz');
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ status: 'not ready', checks: { database: 'ok: postgres', storage: 'failed: ECONNREFUSED: connect refused' } });
    draining = true;
    const drained = await app.inject('/readyz');
    expect([drained.statusCode, drained.json()]).toEqual([503, { status: 'shutting down' }]);
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it('time out a readiness check that does not answer', async () => {
    const app = bare([{ name: 'storage', check: () => new Promise<string>(() => {}) }]);
    const answer = await app.inject('/readyz');
    expect(answer.statusCode).toBe(503);
    expect(answer.json().checks.storage).toMatch(/^failed: no answer in \d+ ms$/);
  });

  it('give metrics to a scraper on a private network or with the token, to nobody else', async () => {
    const open = bare([]);
    expect((await open.inject({ url: '/metrics', remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
    expect((await open.inject({ url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    expect((await open.inject({ url: '/metrics', remoteAddress: '8.8.8.8' })).statusCode).toBe(403);
    const guarded = bare([], { metricsToken: 's3cret-token' });
    expect((await guarded.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(403);
    expect((await guarded.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token!' } })).statusCode).toBe(403);
    expect((await guarded.inject({ url: '/metrics', remoteAddress: '8.8.8.8', headers: { authorization: 'Bearer s3cret-token' } })).statusCode).toBe(200);
  });

  it('count unmatched paths under one label, so scans cannot grow the metrics', async () => {
    const app = bare([]);
    await app.inject('/tiles/3');
    await app.inject('/wp-admin/random-1');
    await app.inject('/wp-admin/random-2');
    const body = (await app.inject('/metrics')).body;
    expect(body).toMatch(/route="\/tiles\/:z",status="200"/);
    expect(body).not.toMatch(/wp-admin/);
    expect(body).toMatch(/route="unmatched",status="404"\} [2-9]/);
  });
});

describe('request ids', () => {
  it('are echoed in X-Request-Id: the balancer\'s when plain, else a new UUID', async () => {
    const app = bare([]);
    const mine = await app.inject({ url: '/tiles/1', headers: { 'x-request-id': 'lb-4f2a:17' } });
    expect(mine.headers['x-request-id']).toBe('lb-4f2a:17');
    const fresh = await app.inject('/tiles/1');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    const hostile = await app.inject({ url: '/tiles/1', headers: { 'x-request-id': 'x\u001b[31m fake log line' } });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});

describe('graceful shutdown', () => {
  async function listening(): Promise<{ app: FastifyInstance; base: string; release: () => void; entered: Promise<void> }> {
    const app = Fastify();
    let release = () => {};
    let entered = () => {};
    const enteredPromise = new Promise<void>((resolve) => { entered = resolve; });
    app.get('/slow', async () => {
      entered();
      await new Promise<void>((resolve) => { release = resolve; });
      return { finished: true };
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, base, release: () => release(), entered: enteredPromise };
  }

  it('finishes the requests in flight, then stops taking new ones', async () => {
    const { app, base, release, entered } = await listening();
    const inFlight = fetch(`${base}/slow`).then((r) => r.json());
    await entered;
    const shutdown = new Shutdown({ delayMs: 0, timeoutMs: 10_000 });
    const exitCode = shutdown.begin(app, 'test');
    expect(shutdown.draining).toBe(true);
    release();
    expect(await inFlight).toEqual({ finished: true });
    expect(await exitCode).toBe(0);
    await expect(fetch(`${base}/slow`)).rejects.toThrow();
  });

  it('gives up after its timeout with exit code 1', async () => {
    const { app, entered, base, release } = await listening();
    void fetch(`${base}/slow`).catch(() => {});
    await entered;
    expect(await new Shutdown({ delayMs: 0, timeoutMs: 50 }).begin(app, 'test')).toBe(1);
    release();
  });

  it('reads its timings from the environment and refuses nonsense', () => {
    expect(shutdownTimingsFromEnv({})).toEqual({ delayMs: 0, timeoutMs: 15_000 });
    expect(shutdownTimingsFromEnv({ ISOBAR_SHUTDOWN_DELAY_MS: '3000', ISOBAR_SHUTDOWN_TIMEOUT_MS: '20000' })).toEqual({ delayMs: 3000, timeoutMs: 20_000 });
    expect(() => shutdownTimingsFromEnv({ ISOBAR_SHUTDOWN_DELAY_MS: 'soon' })).toThrow(/ISOBAR_SHUTDOWN_DELAY_MS must be a number/);
  });
});
