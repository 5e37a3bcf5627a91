// Tiles are packed here in the published layout (channels ir, composite: common/satellite.ts); the
// real publisher's frames are drawn end to end by tests/satellite.spec.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { dataZoomFor } from '../../common/catalogue/products.ts';
import { SATELLITE_CHANNELS, SATELLITE_DATA_MAX_ZOOM, SATELLITE_PRODUCT, satelliteSteps, type SatelliteFrame } from '../../common/satellite.ts';
import { decodeDataTile, NO_DATA, packDataTile } from '../../common/tile.ts';
import { TILE_NODES, tileBounds } from '../../common/tiling.ts';
import { MINUTE_MS } from '../../common/time.ts';
import { emptySatelliteTile, satelliteOverlayTile, SatelliteTileSource } from './satelliteTileSource.ts';

const T = Date.UTC(2025, 5, 1, 12, 0, 21);
const N = TILE_NODES * TILE_NODES;
const [IR_Q, COMPOSITE_Q] = SATELLITE_CHANNELS;

const frame = (source: string, minutes: number, tiles: string[] = []): SatelliteFrame => ({
  time: T + minutes * MINUTE_MS, id: `${source}${minutes}`, source, tiles, bounds: { west: -150, south: -80, east: 0, north: 80 },
});

/** A published tile (channels ir K, composite 0..1) with the given nodes set: k -> [K, brightness]. */
function published(address: { z: number; x: number; y: number }, nodes: Record<number, [number, number]>): Uint8Array {
  const ir = new Uint16Array(N).fill(NO_DATA);
  const comp = new Uint16Array(N).fill(NO_DATA);
  for (const [k, [kelvin, b]] of Object.entries(nodes)) {
    ir[Number(k)] = Math.round((kelvin - IR_Q.offset) / IR_Q.scale);
    comp[Number(k)] = Math.round(b / COMPOSITE_Q.scale);
  }
  return packDataTile({ ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, channels: [{ ...IR_Q, q: ir }, { ...COMPOSITE_Q, q: comp }] });
}

describe('the satellite timeline', () => {
  it('makes one step of scans that start together, each showing every satellite newest frame within the window', () => {
    const steps = satelliteSteps([
      frame('goesEast', 0), { ...frame('goesWest', 0), time: T - 2000 },
      frame('goesEast', 10),
      frame('goesEast', 40),
    ]);
    expect(steps.map((s) => (s.time - T) / MINUTE_MS)).toEqual([0, 10, 40]);
    expect(steps.map((s) => s.frames.map((f) => f.id))).toEqual([
      ['goesEast0', 'goesWest0'],
      // GOES-West's scan of 12:00 still stands for its area 10 minutes on...
      ['goesEast10', 'goesWest0'],
      // ... but not 40 minutes on: no data there rather than old clouds.
      ['goesEast40'],
    ]);
  });
});

describe('satellite tiles', () => {
  const address = { z: 2, x: 1, y: 1 }; // 135° W .. 90° W
  it('are the composite (drawn) then the infrared (picked), node by node from the satellite nearer in longitude', () => {
    const { west, east } = tileBounds(address);
    const step = (east - west) / (TILE_NODES - 1);
    const westNode = 0; // 135° W, nearer GOES-West (137° W)
    const eastNode = TILE_NODES - 1; // 90° W, nearer GOES-East (75° W)
    const onlyWest = 10; // 135° W + 10 nodes: GOES-East has no picture there
    const goesEast = published(address, { [westNode]: [280, 0.2], [eastNode]: [230, 0.7] });
    const goesWest = published(address, { [westNode]: [250, 0.5], [eastNode]: [260, 0.4], [onlyWest]: [210, 0.9] });
    const tile = decodeDataTile(satelliteOverlayTile(address, [{ bytes: goesEast, lon0: -75 }, { bytes: goesWest, lon0: -137 }]));
    expect(west + eastNode * step).toBeCloseTo(-90, 6);
    const [composite, ir] = tile.channels;
    expect(composite[westNode]).toBeCloseTo(0.5, 4);
    expect(ir[westNode]).toBeCloseTo(250, 2);
    expect(composite[eastNode]).toBeCloseTo(0.7, 4);
    expect(ir[eastNode]).toBeCloseTo(230, 2);
    expect(composite[onlyWest]).toBeCloseTo(0.9, 4);
    expect(ir[onlyWest]).toBeCloseTo(210, 2);
    // Off both disks: no data, nothing drawn.
    expect(composite[5]).toBeNaN();
    expect(ir[5]).toBeNaN();
  });

  it('fetch nothing for a tile no frame has (off the disk), share one key across steps showing the same frame, and stop at the data zoom', async () => {
    const steps = satelliteSteps([frame('goesEast', 0, ['2/1/1']), frame('goesEast', 10, ['2/1/1', '2/2/1'])]);
    const source = new SatelliteTileSource('http://127.0.0.1:9', steps, { goesEast: -75 }, null);
    const key = (minutes: number, a = address) => source.key({ file: 'satellite', level: 'surface', validTime: T + minutes * MINUTE_MS, address: a });
    expect(key(0)).toBe('http://127.0.0.1:9/obs/v1.0/satellite/frames/goesEast0/2/1/1.tile');
    expect(key(10)).toBe('http://127.0.0.1:9/obs/v1.0/satellite/frames/goesEast10/2/1/1.tile');
    // At 12:00 the frame has no 2/2/1: off the disk, one empty key for every step without it, and no fetch (port 9 would refuse).
    const off = { z: 2, x: 0, y: 0 };
    expect(key(0, off)).toBe(key(10, off));
    expect(key(0, off)).toContain('/satellite/empty/2/0/0.tile');
    const empty = decodeDataTile(await source.load({ file: 'satellite', level: 'surface', validTime: T, address: off }, new AbortController().signal));
    expect(empty.channels).toHaveLength(2);
    expect(empty.channels.every((c) => c.every(Number.isNaN))).toBe(true);
    expect(decodeDataTile(emptySatelliteTile(off)).header.channels).toBe(2);
    expect(() => key(5)).toThrow(/No satellite frame/);
    // Data tiles stop at SATELLITE_DATA_MAX_ZOOM: above it nothing is asked; the product caps the planner there.
    expect(() => key(0, { z: SATELLITE_DATA_MAX_ZOOM + 1, x: 0, y: 0 })).toThrow(/stop at data zoom 5/);
    expect(SATELLITE_PRODUCT.maxTileZoom).toEqual({ free: SATELLITE_DATA_MAX_ZOOM, premium: SATELLITE_DATA_MAX_ZOOM });
    expect(dataZoomFor(SATELLITE_PRODUCT, 16)).toBe(SATELLITE_DATA_MAX_ZOOM);
    expect(dataZoomFor(SATELLITE_PRODUCT, 16, true)).toBe(SATELLITE_DATA_MAX_ZOOM);
    expect(dataZoomFor(SATELLITE_PRODUCT, 5)).toBe(3);
  });

  it('load the frames of a step over HTTP, with the bearer token, made into one tile', async () => {
    const tiles = new Map([
      ['/obs/v1.0/satellite/frames/goesEast0/2/1/1.tile', published(address, { 255: [230, 0.7], 10: [290, 0.1] })],
      ['/obs/v1.0/satellite/frames/goesWest0/2/1/1.tile', published(address, { 0: [250, 0.5], 10: [215, 0.8] })],
    ]);
    const asked: { url: string; auth: string | undefined }[] = [];
    const server = createServer((req, res) => {
      asked.push({ url: req.url ?? '', auth: req.headers.authorization });
      const body = tiles.get(req.url ?? '');
      res.writeHead(body ? 200 : 404).end(body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const steps = satelliteSteps([frame('goesEast', 0, ['2/1/1']), frame('goesWest', 0, ['2/1/1', '2/0/1'])]);
      const source = new SatelliteTileSource(origin, steps, { goesEast: -75, goesWest: -137 }, 'premium-token');
      const request = { file: 'satellite', level: 'surface', validTime: T, address };
      expect(source.key(request).split(' ')).toHaveLength(2);
      const [composite, ir] = decodeDataTile(await source.load(request, new AbortController().signal)).channels;
      expect(asked.map((a) => a.auth)).toEqual(['Bearer premium-token', 'Bearer premium-token']);
      expect([composite[0], composite[255]]).toEqual([expect.closeTo(0.5, 4), expect.closeTo(0.7, 4)]);
      // Node 10, 133.2° W: both have it, GOES-West (137° W) is nearer.
      expect(ir[10]).toBeCloseTo(215, 2);
      // A frame that lists a tile the server lacks: a named error with the URL, not a blank.
      await expect(source.load({ ...request, address: { z: 2, x: 0, y: 1 } }, new AbortController().signal)).rejects.toThrow(/HTTP 404 for .*goesWest0\/2\/0\/1\.tile/);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
