import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeDataTile, Predictor, type DecodedTile } from '../../common/tile.ts';
import { TILE_NODES, tileBounds } from '../../common/tiling.ts';
import { evaluatePoint, type DemoPoint } from './demoModel.ts';
import { TilePool } from '../data/tilePool.ts';
import { DEMO_TILE_FILES, DemoTileStore, generateTileSet, tileNodeCoordinates, type TileSetGenerator } from './demoTiles.ts';

const TIME = Date.UTC(2025, 10, 26, 6);
/** Each file's channels as DemoPoint keys. */
const CHANNELS: Record<string, (keyof DemoPoint)[]> = {
  wind: ['u', 'v'], gust: ['gust'], temp: ['temp'], pressure: ['pressure'], rain: ['rain'], clouds: ['clouds'],
};

async function decodedTiles(store: DemoTileStore, z: number, x: number, y: number): Promise<Map<string, DecodedTile>> {
  const set = await store.get(TIME, { z, x, y });
  return new Map([...set.files].map(([file, tile]) => [file, decodeDataTile(gunzipSync(tile.gzip))]));
}

/** The generator run here instead of on a thread, counting its calls. */
function inProcess(): { generate: TileSetGenerator; calls: () => number } {
  let calls = 0;
  return {
    generate: async (validTime, address) => {
      calls++;
      return generateTileSet(validTime, address);
    },
    calls: () => calls,
  };
}

describe('demo tiles', () => {
  // Generates on a tile thread, as the server does.
  const pool = new TilePool({ threads: 1 });
  const store = new DemoTileStore({ pool });
  afterAll(() => pool.close());

  it('generates on a worker thread the same bytes as here', async () => {
    const set = await store.get(TIME, { z: 1, x: 3, y: 1 });
    const here = generateTileSet(TIME, { z: 1, x: 3, y: 1 });
    for (const { file, offset, length, hash } of here.files) {
      const tile = set.files.get(file)!;
      expect(Buffer.compare(tile.gzip, Buffer.from(here.buffer, offset, length))).toBe(0);
      expect(tile.etagGzip).toBe(`"${hash}-gz"`);
      expect(tile.etagIdentity).toBe(`"${hash}"`);
    }
    expect(store.stats().pool).toMatchObject({ size: 1, completed: 1, failed: 0 });
  });

  it('generates all six files of a tile at once', async () => {
    expect([...DEMO_TILE_FILES].sort()).toEqual(['clouds', 'gust', 'pressure', 'rain', 'temp', 'wind']);
    const tiles = await decodedTiles(store, 1, 2, 0);
    expect([...tiles.keys()].sort()).toEqual([...DEMO_TILE_FILES].sort());
    for (const [file, tile] of tiles) {
      expect(tile.header.channels).toBe(CHANNELS[file].length);
      expect(tile.header.predictor).toBe(Predictor.RowDelta);
      expect(tile.header.width).toBe(TILE_NODES);
      expect(tile.header.height).toBe(TILE_NODES);
      const { west, north, east, south } = tileBounds({ z: 1, x: 2, y: 0 });
      expect([tile.header.west, tile.header.north, tile.header.east, tile.header.south]).toEqual([west, north, east, south]);
    }
  });

  it('holds at every node the point value, within quantization', async () => {
    const address = { z: 0, x: 1, y: 0 };
    const tiles = await decodedTiles(store, 0, 1, 0);
    const { lats, lons } = tileNodeCoordinates(address);
    for (let j = 0; j < TILE_NODES; j += 15) {
      for (let i = 0; i < TILE_NODES; i += 15) {
        const point = evaluatePoint(lats[j], lons[i], TIME);
        for (const [file, tile] of tiles) {
          CHANNELS[file].forEach((key, c) => {
            // Half a quantization step plus float32 rounding of the stored value.
            const tolerance = tile.header.scales[c] / 2 + Math.abs(point[key]) * 1e-7 + 1e-6;
            expect(Math.abs(tile.channels[c][j * TILE_NODES + i] - point[key])).toBeLessThanOrEqual(tolerance);
          });
        }
      }
    }
  });

  it('is smooth: bilinear in the middle of a cell agrees closely with the point value (data zoom 0)', async () => {
    const address = { z: 0, x: 0, y: 0 };
    const tiles = await decodedTiles(store, 0, 0, 0);
    const { lats, lons } = tileNodeCoordinates(address);
    const tolerance: Record<keyof DemoPoint, number> = { u: 0.5, v: 0.5, gust: 1.5, temp: 0.5, pressure: 30, rain: 1, clouds: 4 };
    const errors: Record<string, number[]> = {};
    for (let j = 3; j < TILE_NODES - 1; j += 7) {
      for (let i = 5; i < TILE_NODES - 1; i += 7) {
        const point = evaluatePoint((lats[j] + lats[j + 1]) / 2, (lons[i] + lons[i + 1]) / 2, TIME);
        for (const [file, tile] of tiles) {
          CHANNELS[file].forEach((key, c) => {
            const v = tile.channels[c];
            const k = j * TILE_NODES + i;
            const bilinear = (v[k] + v[k + 1] + v[k + TILE_NODES] + v[k + TILE_NODES + 1]) / 4;
            (errors[key] ??= []).push(Math.abs(bilinear - point[key]));
          });
        }
      }
    }
    for (const [key, list] of Object.entries(errors)) {
      list.sort((a, b) => a - b);
      expect(list[Math.floor(list.length * 0.99)], key).toBeLessThan(tolerance[key as keyof DemoPoint] / 3);
      expect(list[list.length - 1], key).toBeLessThan(tolerance[key as keyof DemoPoint]);
    }
  });

  it('shares the edge nodes of neighbouring tiles exactly', async () => {
    const west = await decodedTiles(store, 1, 1, 1);
    const east = await decodedTiles(store, 1, 2, 1);
    const a = west.get('temp')!.channels[0];
    const b = east.get('temp')!.channels[0];
    for (let j = 0; j < TILE_NODES; j += 17) expect(a[j * TILE_NODES + TILE_NODES - 1]).toBe(b[j * TILE_NODES]);
  });

  it('answers repeated and concurrent requests from one generation', async () => {
    const generator = inProcess();
    const fresh = new DemoTileStore({ generate: generator.generate });
    const [a, b] = await Promise.all([fresh.get(TIME, { z: 0, x: 0, y: 0 }), fresh.get(TIME, { z: 0, x: 0, y: 0 })]);
    expect(a).toBe(b);
    expect(await fresh.get(TIME, { z: 0, x: 0, y: 0 })).toBe(a);
    const stats = fresh.stats();
    expect(generator.calls()).toBe(1);
    expect(stats.generated).toBe(1);
    expect(stats.hits).toBe(1);
    expect(stats.bytes).toBe(a.bytes);
    expect(stats.meanTimings.evaluateMs).toBeGreaterThan(0);
  });

  it('evicts the least recently used tiles to stay within its byte budget', async () => {
    let three = 0;
    for (const x of [0, 1, 2]) three += (await store.get(TIME, { z: 1, x, y: 0 })).bytes;
    const small = new DemoTileStore({ maxBytes: three - 1, generate: inProcess().generate }); // room for two of them, not three
    await small.get(TIME, { z: 1, x: 0, y: 0 });
    await small.get(TIME, { z: 1, x: 1, y: 0 });
    await small.get(TIME, { z: 1, x: 0, y: 0 }); // touch: now the most recent
    await small.get(TIME, { z: 1, x: 2, y: 0 }); // evicts 1/1/0
    const stats = small.stats();
    expect(stats.bytes).toBeLessThanOrEqual(small.maxBytes);
    expect(stats.entries).toBe(2);
    await small.get(TIME, { z: 1, x: 0, y: 0 });
    expect(small.stats().generated).toBe(3); // 1/0/0 stayed
    await small.get(TIME, { z: 1, x: 1, y: 0 });
    expect(small.stats().generated).toBe(4); // 1/1/0 was evicted
  });

  it('inflates a tile once for the clients without gzip, and counts those bytes in its budget', async () => {
    const fresh = new DemoTileStore({ generate: inProcess().generate });
    const tile = (await fresh.get(TIME, { z: 0, x: 1, y: 0 })).files.get('temp')!;
    const before = fresh.stats().bytes;
    const identity = await tile.identity();
    expect(Buffer.compare(identity, gunzipSync(tile.gzip))).toBe(0);
    // The same Buffer for every later request: not inflated again.
    expect(await tile.identity()).toBe(identity);
    expect(await (await fresh.get(TIME, { z: 0, x: 1, y: 0 })).files.get('temp')!.identity()).toBe(identity);
    expect(fresh.stats().bytes).toBe(before + identity.byteLength);
  });

  it('evicts a set whose inflated bytes push the cache over its budget', async () => {
    const generate = inProcess().generate;
    const probe = new DemoTileStore({ generate });
    const both = (await probe.get(TIME, { z: 1, x: 0, y: 1 })).bytes + (await probe.get(TIME, { z: 1, x: 1, y: 1 })).bytes;
    const small = new DemoTileStore({ maxBytes: both + 1000, generate });
    const first = await small.get(TIME, { z: 1, x: 0, y: 1 });
    await small.get(TIME, { z: 1, x: 1, y: 1 });
    expect(small.stats().entries).toBe(2);
    await first.files.get('wind')!.identity(); // 262 KB more than the budget allows: the older set goes
    expect(small.stats().entries).toBe(1);
    expect(small.stats().bytes).toBeLessThanOrEqual(small.maxBytes);
  });

  it('stops its prewarm quietly when aborted while a tile is being made and the threads close', async () => {
    let fail: ((error: Error) => void) | undefined;
    const fresh = new DemoTileStore({ generate: () => new Promise((_, reject) => { fail = reject; }) });
    const stop = new AbortController();
    const warm = fresh.prewarm([TIME], [0], stop.signal);
    await vi.waitFor(() => expect(fail).toBeDefined());
    stop.abort();
    fail!(new Error('tile threads: the pool closed while the task ran'));
    expect(await warm).toBe(0);
  });

  it('prewarms whole zoom levels and stops when aborted', async () => {
    const fresh = new DemoTileStore({ generate: inProcess().generate });
    expect(await fresh.prewarm([TIME], [0])).toBe(2);
    const stop = new AbortController();
    stop.abort();
    expect(await fresh.prewarm([TIME], [1], stop.signal)).toBe(0);
  });
});
