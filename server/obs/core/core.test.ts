import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OBS_STATUS_ANSWER, OBS_STATUS_PATH, obsFilePath } from '../../../common/api/obs.ts';
import { schemaProblem } from '../../../common/api/schema.ts';
import { buildApp } from '../../app.ts';
import { obsConfigFromEnv, type ObsFactory } from './config.ts';
import { startObsPoller } from './poller.ts';
import { ObsDataError, type ObsContext, type ObsSource } from './source.ts';
import { isSafeObsPath, ObsStore } from './store.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'isobar-obs-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function logger() {
  const lines: Array<{ level: string; msg?: string; obj: object }> = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A source whose polls publish `count.json` with a counter, failing when `fail` says so. */
function countingSource(id: string, fail: (n: number) => boolean): ObsSource & { polls: number } {
  const source = {
    id, kind: 'lightning' as const, label: 'Test counter', attribution: 'nobody', intervalMinutes: 60, polls: 0,
    async poll(ctx: ObsContext) {
      const n = ++source.polls;
      if (fail(n)) throw new ObsDataError(id, `poll ${n}`, 'truncated file');
      await ctx.store.publishDir('lightning', `items/${n}`, async (dir) => {
        const { writeFile } = await import('node:fs/promises');
        await writeFile(join(dir, 'a.json'), JSON.stringify({ n }));
      });
      await ctx.store.writeJson('lightning', 'count.json', { n });
    },
  };
  return source;
}

describe('ObsStore', () => {
  it('accepts plain relative paths only', () => {
    expect(isSafeObsPath('frames/20260101T0000/3/1/2.tile')).toBe(true);
    for (const bad of ['', '../x', 'a/../b', '/etc/passwd', 'a//b', 'a/./b', '.hidden', 'a\\b', 'x%2f..']) expect(isSafeObsPath(bad), bad).toBe(false);
    expect(() => new ObsStore(dataDir).path('radar', '../secrets')).toThrow(/Not a valid/);
  });

  it('publishes an item whole or not at all, and replaces one of the same name', async () => {
    const store = new ObsStore(dataDir);
    await expect(store.publishDir('radar', 'frames/a', async (dir) => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(join(dir, 'half.tile'), 'x');
      throw new Error('disk full');
    })).rejects.toThrow('disk full');
    expect(await store.list('radar', 'frames')).toEqual([]);
    expect(await readdir(join(store.root, '.staging'))).toEqual([]);
    for (const text of ['one', 'two']) {
      await store.publishDir('radar', 'frames/a', async (dir) => {
        const { writeFile } = await import('node:fs/promises');
        await writeFile(join(dir, `${text}.txt`), text);
      });
    }
    expect(await readdir(store.path('radar', 'frames/a'))).toEqual(['two.txt']);
    await store.writeJson('radar', 'manifest.json', { frames: ['a'] });
    expect(await store.readJson('radar', 'manifest.json')).toEqual({ frames: ['a'] });
    expect(await store.readJson('radar', 'none.json')).toBeNull();
    await store.remove('radar', 'frames/a');
    expect(await store.list('radar', 'frames')).toEqual([]);
  });
});

describe('the observation poller', () => {
  it('keeps the last publication when a poll fails, warns once, and says when it recovers', async () => {
    const { lines, log } = logger();
    const source = countingSource('counter', (n) => n === 2 || n === 3);
    const poller = startObsPoller({ sources: [source], dataDir, logger: log, pollOnStart: false, now: () => 1_000 });
    try {
      expect(await poller.pollNow('counter')).toEqual({ ok: true });
      const failed = await poller.pollNow('counter');
      expect(failed.ok).toBe(false);
      await poller.pollNow('counter');
      expect(await poller.store.readJson('lightning', 'count.json')).toEqual({ n: 1 });
      expect(poller.status()[0]).toMatchObject({ id: 'counter', lastError: 'counter: poll 3: truncated file', lastSuccessAt: 1_000 });
      expect(lines.filter((l) => l.level === 'warn').map((l) => l.obj)).toEqual([{ source: 'counter', err: 'counter: poll 2: truncated file' }]);
      expect(await poller.pollNow('counter')).toEqual({ ok: true });
      expect(await poller.store.readJson('lightning', 'count.json')).toEqual({ n: 4 });
      expect(lines.some((l) => l.msg === 'observation source recovered')).toBe(true);
      expect(poller.status()[0].lastError).toBeNull();
    } finally {
      await poller.stop();
    }
  });

  it('polls one source at a time, in order', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const source: ObsSource = {
      id: 'slow', kind: 'fires', label: 'slow', attribution: '', intervalMinutes: 60,
      async poll() {
        order.push('start');
        await gate;
        order.push('end');
      },
    };
    const poller = startObsPoller({ sources: [source], dataDir, logger: logger().log, pollOnStart: false });
    const first = poller.pollNow('slow');
    const second = poller.pollNow('slow');
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['start', 'end', 'start', 'end']);
    await poller.stop();
  });

  it('does not start a source that cannot run, and says why', async () => {
    const { lines, log } = logger();
    const poller = startObsPoller({ sources: [{ ...countingSource('keyed', () => false), unsupportedReason: 'ISOBAR_TEST_KEY is not set' }], dataDir, logger: log });
    expect(poller.status()).toEqual([]);
    expect(lines[0]).toMatchObject({ level: 'warn', obj: { source: 'keyed', reason: 'ISOBAR_TEST_KEY is not set' } });
    await expect(poller.pollNow('keyed')).rejects.toThrow(/No observation source keyed/);
    await poller.stop();
  });
});

describe('ISOBAR_OBS', () => {
  const factories: Record<string, ObsFactory> = {
    free: { default: true, create: () => countingSource('free', () => false) },
    keyed: { default: false, create: () => countingSource('keyed', () => false) },
  };
  it('lists sources, follows the keyless ones when unset, and none in tests', () => {
    expect(obsConfigFromEnv(factories, { ISOBAR_OBS: 'keyed, free,keyed' }).sources.map((s) => s.id)).toEqual(['keyed', 'free']);
    expect(obsConfigFromEnv(factories, {})).toMatchObject({ mode: 'default', sources: [{ id: 'free' }] });
    expect(obsConfigFromEnv(factories, { ISOBAR_SOURCES: 'none' })).toEqual({ mode: 'none', sources: [] });
    expect(obsConfigFromEnv(factories, { ISOBAR_OBS: 'none' })).toEqual({ mode: 'none', sources: [] });
    expect(() => obsConfigFromEnv(factories, { ISOBAR_OBS: 'free,radarz' })).toThrow(/unknown observation source radarz/);
  });
});

describe('the observation routes', () => {
  let app: FastifyInstance;
  const source = countingSource('routeCounter', () => false);
  beforeAll(async () => {
    app = await buildApp({ distDir: null, prewarm: false, dataDir, liveSources: null, obs: { sources: [source], pollOnStart: false, access: (_kind, path) => (path === 'count.json' ? { private: true } : undefined) } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('serve what a poll published, with the sources\' status', async () => {
    // onListen hooks run after listen() resolves.
    await vi.waitUntil(() => app.obs !== null, { timeout: 5_000 });
    await app.obs?.pollNow('routeCounter');
    const status = await app.inject({ method: 'GET', url: OBS_STATUS_PATH });
    expect(schemaProblem(OBS_STATUS_ANSWER, status.json())).toBeNull();
    expect(status.json().sources).toEqual([expect.objectContaining({ id: 'routeCounter', kind: 'lightning', ok: true })]);
    const count = await app.inject({ method: 'GET', url: obsFilePath('lightning', 'count.json') });
    expect(count.statusCode).toBe(200);
    expect(count.headers['content-type']).toMatch(/application\/json/);
    expect(count.json()).toEqual({ n: source.polls });
    expect(count.headers['cache-control']).toBe('private, max-age=30'); // access marked it private
    const item = await app.inject({ method: 'GET', url: obsFilePath('lightning', `items/${source.polls}/a.json`) });
    expect(item.headers['cache-control']).toBe('public, max-age=3600');
    expect(JSON.parse(await readFile(join(dataDir, 'obs', 'lightning', 'count.json'), 'utf8'))).toEqual({ n: source.polls });
  });

  it('refuse unknown families, paths that leave the folder, and missing files', async () => {
    for (const url of ['/obs/v1.0/secrets/x.json', '/obs/v1.0/lightning/..%2F..%2Fisobar.sqlite', '/obs/v1.0/lightning/nothing.json', '/obs/v1.0/lightning/items']) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
    }
  });
});

describe('the observation routes\' access check', () => {
  let app: FastifyInstance;
  const source = countingSource('accessCounter', () => false);
  beforeAll(async () => {
    const { HttpError } = await import('../../http/httpError.ts');
    app = await buildApp({
      distDir: null, prewarm: false, dataDir, liveSources: null,
      obs: {
        sources: [source], pollOnStart: false,
        access: async (_kind, path, request, store) => {
          if (path.startsWith('items/') && request.headers['x-tier'] !== 'premium') throw new HttpError(403, 'Premium only');
          if (path === 'count.json' && request.headers['x-tier'] !== 'premium') return { json: { n: -((await store.readJson<{ n: number }>('lightning', path))?.n ?? 0) } };
        },
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await vi.waitUntil(() => app.obs !== null, { timeout: 5_000 });
    await app.obs?.pollNow('accessCounter');
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses what it throws for, and answers its own document uncached by shared caches', async () => {
    const refused = await app.inject({ method: 'GET', url: obsFilePath('lightning', `items/${source.polls}/a.json`) });
    expect(refused.statusCode).toBe(403);
    const allowed = await app.inject({ method: 'GET', url: obsFilePath('lightning', `items/${source.polls}/a.json`), headers: { 'x-tier': 'premium' } });
    expect(allowed.statusCode).toBe(200);
    const own = await app.inject({ method: 'GET', url: obsFilePath('lightning', 'count.json') });
    expect(own.json()).toEqual({ n: -source.polls });
    expect(own.headers['cache-control']).toBe('private, max-age=30');
    expect(own.headers['content-type']).toMatch(/application\/json/);
    const file = await app.inject({ method: 'GET', url: obsFilePath('lightning', 'count.json'), headers: { 'x-tier': 'premium' } });
    expect(file.json()).toEqual({ n: source.polls });
  });

  it('sends stored gzip data tiles as gzip to clients that take it, decompressed to the others', async () => {
    const { gzipSync } = await import('node:zlib');
    const { writeFile } = await import('node:fs/promises');
    const bytes = new Uint8Array(4096).map((_, i) => i % 7);
    await new ObsStore(dataDir).publishDir('lightning', 'tiles', async (dir) => writeFile(join(dir, 'a.tile'), gzipSync(bytes)));
    const url = obsFilePath('lightning', 'tiles/a.tile');
    const headers = { 'x-tier': 'premium' };
    const gzip = await app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'gzip, br' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
    expect(new Uint8Array(gzip.rawPayload)).not.toEqual(bytes);
    const plain = await app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(new Uint8Array(plain.rawPayload)).toEqual(bytes);
  });
});
