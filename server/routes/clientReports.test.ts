import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorReport } from '../../common/errorReport.ts';
import { buildApp } from '../app.ts';
import { clientReportRoutes } from './clientReports.ts';
import { databaseSharedState, type SharedState } from '../auth/sharedState.ts';
import { openDatabase } from '../db/database.ts';
import { testDatabases } from '../db/testing.ts';

const REPORT: ErrorReport = {
  errorID: 'abc123', overlay: 'wind', runningPhase: '3_redrawFinished', timestamp: 1_700_000_000_000, runningMinutes: 2.5,
  type: 'error', msg: 'x is not defined', repeated: 0, url: 'https://isobar.test/?token=secret1&a=1', ver: '0.1.0',
  target: 'index', platform: 'desktop', device: 'desktop', latestBcast: ['startup'], network: '4g',
  script: 'https://isobar.test/assets/index.js', line: 10, col: 4, stack: 'ReferenceError: x is not defined\n  Authorization: Bearer abc.def',
};

async function app(options: { reportsPerMinute?: number; now?: () => number; state?: SharedState } = {}) {
  const logged: ErrorReport[] = [];
  const server = Fastify();
  await server.register(clientReportRoutes, { logReport: (r: ErrorReport) => logged.push(r), ...options });
  return { server: server as FastifyInstance, logged };
}

const post = (server: FastifyInstance, body: unknown, headers: Record<string, string> = {}) =>
  server.inject({ method: 'POST', url: '/sedlina/errors', payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

describe('POST /sedlina/errors (SPEC §7)', () => {
  const servers: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('accepts a report: 204 and one log line with secrets redacted', async () => {
    const { server, logged } = await app();
    servers.push(server);
    const response = await post(server, REPORT);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ errorID: 'abc123', msg: 'x is not defined', url: 'https://isobar.test/?token=[redacted]&a=1' });
    expect(logged[0].stack).toContain('Bearer [redacted]');
    expect(JSON.stringify(logged)).not.toMatch(/secret1|abc\.def/);
  });

  it('drops fields the schema does not know', async () => {
    const { server, logged } = await app();
    servers.push(server);
    expect((await post(server, { ...REPORT, authorization: 'Bearer zzz', cookie: 'a=b' })).statusCode).toBe(204);
    expect(logged[0]).not.toHaveProperty('authorization');
    expect(logged[0]).not.toHaveProperty('cookie');
  });

  it.each([
    ['no errorID', { ...REPORT, errorID: undefined }],
    ['a bad errorID', { ...REPORT, errorID: 'a b/c' }],
    ['an unknown phase', { ...REPORT, runningPhase: '4_done' }],
    ['an unknown type', { ...REPORT, type: 'weird' }],
    ['a message too long', { ...REPORT, msg: 'x'.repeat(2001) }],
    ['too many broadcasts', { ...REPORT, latestBcast: ['a', 'b', 'c', 'd', 'e', 'f'] }],
    ['a negative line', { ...REPORT, line: -1 }],
    ['not an object', [1, 2]],
  ])('400 for %s', async (_name, body) => {
    const { server, logged } = await app();
    servers.push(server);
    const response = await post(server, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(logged).toHaveLength(0);
  });

  it('400 for a body that is not JSON', async () => {
    const { server } = await app();
    servers.push(server);
    expect((await post(server, '{not json')).statusCode).toBe(400);
  });

  it('413 for a body over 16 KB', async () => {
    const { server, logged } = await app();
    servers.push(server);
    const response = await post(server, { ...REPORT, stack: 'y'.repeat(17 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(logged).toHaveLength(0);
  });

  it('429 with Retry-After beyond the per-address limit; a new minute starts afresh', async () => {
    let now = 1_000_000;
    const { server, logged } = await app({ reportsPerMinute: 3, now: () => now });
    servers.push(server);
    for (let i = 0; i < 3; i++) expect((await post(server, REPORT)).statusCode).toBe(204);
    const limited = await post(server, REPORT);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not limited.
    expect((await server.inject({ method: 'POST', url: '/sedlina/errors', payload: REPORT, remoteAddress: '10.9.9.9' })).statusCode).toBe(204);
    now += 60_000;
    expect((await post(server, REPORT)).statusCode).toBe(204);
    expect(logged).toHaveLength(5);
  });
});

// Two handles on one database (two pools on PostgreSQL) stand for two web processes.
describe.each(testDatabases())('the error report limit across two processes on $name', ({ make }) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('reports through one process count in the other', async () => {
    const test = await make();
    cleanup.push(() => test.cleanup());
    const servers: FastifyInstance[] = [];
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase(test.config);
      cleanup.push(() => db.close());
      const { server } = await app({ reportsPerMinute: 3, state: databaseSharedState(db) });
      cleanup.push(() => server.close());
      servers.push(server);
    }
    for (let i = 0; i < 3; i++) expect((await post(servers[i % 2], REPORT)).statusCode).toBe(204);
    expect((await post(servers[1], REPORT)).statusCode).toBe(429);
    expect((await post(servers[0], REPORT)).statusCode).toBe(429);
  });
});

describe('HEAD /sedlina/ga/{code} (SPEC §7 page-view beacon)', () => {
  it.each([
    ['/sedlina/ga/isobar?lang=en&screen=1920x1080&cid=abc&page=startup&ref=&elapsed=1200', 204],
    ['/sedlina/ga/isobar', 204],
    ['/sedlina/ga/bad%20code', 400],
    ['/sedlina/ga/isobar?screen=huge', 400],
  ])('%s -> %i', async (url, status) => {
    const { server } = await app();
    const response = await server.inject({ method: 'HEAD', url });
    expect(response.statusCode).toBe(status);
    await server.close();
  });
});

describe('the app serves the routes', () => {
  it('POST /sedlina/errors and HEAD /sedlina/ga answer 204 through buildApp', async () => {
    const server = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null });
    try {
      expect((await post(server, REPORT)).statusCode).toBe(204);
      expect((await server.inject({ method: 'HEAD', url: '/sedlina/ga/isobar?page=startup' })).statusCode).toBe(204);
    } finally {
      await server.close();
    }
  });
});
