import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tilePath } from '../../common/api/tiles.ts';
import { HOUR_MS } from '../../common/time.ts';
import { ServedProducts } from '../data/servedProducts.ts';
import { WorkerPool } from '../data/workerPool.ts';
import type { TestAnswer, TestTask } from '../data/workerPoolTestTask.ts';
import { DemoTileStore, generateTileSet } from '../demo/demoTiles.ts';
import { acceptsGzip, tileRoutes } from './tiles.ts';

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['*', true],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
  ])('%j -> %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('tile route while tiles are generated', () => {
  const NOW = Date.UTC(2025, 10, 26, 7, 30);
  const REF = Date.UTC(2025, 10, 26, 0);
  const url = (x: number, y: number, file = 'wind') => tilePath({
    directory: 'demo', refTime: REF, validTime: REF + 9 * HOUR_MS, z: 1, x, y, file, level: 'surface', suffix: 'tile',
  });
  // A generator held up on a real worker thread: each tile set waits for the thread to pass the
  // gate of the moment (workerPoolTestTask.ts), then is generated here. One thread, one waiting.
  const pool = new WorkerPool<TestTask, TestAnswer>({ module: new URL('../data/workerPoolTestTask.ts', import.meta.url), name: 'demo tiles', size: 1, maxQueued: 1 });
  let gate = new Int32Array(new SharedArrayBuffer(4));
  const openGate = () => {
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
  const store = new DemoTileStore({ generate: (validTime, address) => pool.run({ gate }).then(() => generateTileSet(validTime, address)) });
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(tileRoutes, { served: new ServedProducts({ now: () => NOW, demoTiles: store, stored: null }) });
  });
  afterAll(async () => {
    await app.close();
    await pool.close();
  });

  it('answers cached tiles while the generating thread is busy, 503 with Retry-After when the queue is full, then the rest', async () => {
    openGate();
    const cached = await app.inject({ url: url(0, 0), headers: { 'accept-encoding': 'gzip' } });
    expect(cached.statusCode).toBe(200);

    gate = new Int32Array(new SharedArrayBuffer(4)); // closed: the next generation holds the thread
    const busy = app.inject({ url: url(1, 0), headers: { 'accept-encoding': 'gzip' } });
    await vi.waitFor(() => expect(pool.stats().busy).toBe(1));
    const waiting = app.inject({ url: url(2, 0), headers: { 'accept-encoding': 'gzip' } });
    await vi.waitFor(() => expect(pool.stats().queued).toBe(1));

    const refused = await app.inject({ url: url(3, 0), headers: { 'accept-encoding': 'gzip' } });
    expect(refused.statusCode).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(/Tile 1\/3\/0 .* busy: demo tiles: 1 task waiting/) });

    // Every file of the cached tile answers at once, while both generations still wait.
    for (const file of ['wind', 'temp', 'pressure']) {
      const again = await app.inject({ url: url(0, 0, file), headers: { 'accept-encoding': 'gzip' } });
      expect(again.statusCode).toBe(200);
    }
    const repeat = await app.inject({ url: url(0, 0), headers: { 'accept-encoding': 'gzip' } });
    expect(Buffer.compare(repeat.rawPayload, cached.rawPayload)).toBe(0);
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });

    openGate();
    expect((await busy).statusCode).toBe(200);
    expect((await waiting).statusCode).toBe(200);
    expect((await app.inject({ url: url(3, 0), headers: { 'accept-encoding': 'gzip' } })).statusCode).toBe(200);
  });

  it('inflates a tile for clients without gzip once, and keeps it', async () => {
    openGate();
    const zipped = await app.inject({ url: url(0, 1, 'temp'), headers: { 'accept-encoding': 'gzip' } });
    const before = store.stats().bytes;
    const first = await app.inject({ url: url(0, 1, 'temp') });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers.etag).toBe(String(zipped.headers.etag).replace('-gz', ''));
    expect(Buffer.compare(first.rawPayload, gunzipSync(zipped.rawPayload))).toBe(0);
    const grown = store.stats().bytes - before;
    expect(grown).toBe(first.rawPayload.byteLength);
    for (let i = 0; i < 3; i++) {
      const again = await app.inject({ url: url(0, 1, 'temp'), headers: { 'accept-encoding': 'identity' } });
      expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    }
    // Kept once: the cache holds the same bytes as after the first request.
    expect(store.stats().bytes - before).toBe(grown);
  });
});
