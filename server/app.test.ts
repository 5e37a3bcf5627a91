import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDataTile } from '../common/tile.ts';
import { minifestPath } from '../common/api/products.ts';
import { tilePath } from '../common/api/tiles.ts';
import { hourStamp, parseMinifest } from '../common/minifest.ts';
import { tileBounds, TILE_NODES } from '../common/tiling.ts';
import { buildApp, stepsAroundNow } from './app.ts';
import { evaluatePoint } from './demo/demoModel.ts';
import { HOUR_MS } from '../common/time.ts';

const NOW = Date.UTC(2025, 10, 26, 7, 30);
const REF = Date.UTC(2025, 10, 26, 0);
const VALID = REF + 9 * HOUR_MS;

const tileUrl = (overrides: Partial<Parameters<typeof tilePath>[0]> = {}) => tilePath({
  directory: 'demo', refTime: REF, validTime: VALID, z: 1, x: 2, y: 0, file: 'wind', level: 'surface', suffix: 'tile', ...overrides,
});

function expectIsolationHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  const csp = String(response.headers['content-security-policy']);
  for (const part of ["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'", 'blob:', 'data:']) expect(csp).toContain(part);
}

function expectJsonError(response: LightMyRequestResponse, status: number, message: RegExp): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  const body = response.json();
  expect(body.statusCode).toBe(status);
  expect(body.message).toMatch(message);
}

describe('data API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null });
  });
  afterAll(() => app.close());

  describe('minifest', () => {
    it('describes the current demo run', async () => {
      const response = await app.inject({ url: minifestPath('demo') });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=600');
      const body = response.json();
      expect(body).toEqual({ ref: '2025-11-26T00:00:00.000Z', dst: [[1, 0, 240]], update: '2025-11-26T00:00:00.000Z', v: '1.0', demo: true });
      expect(parseMinifest(body).timestamps).toHaveLength(241);
      expectIsolationHeaders(response);
    });

    it('accepts the Premium flag and unknown query fields of the request layer', async () => {
      const response = await app.inject({ url: `${minifestPath('demo')}?premium=true&token=abc&v=3` });
      expect(response.statusCode).toBe(200);
    });

    it('answers 404 for a product without data and for an unknown directory', async () => {
      expectJsonError(await app.inject({ url: minifestPath('ecmwf-hres') }), 404, /ECMWF IFS.*only the demo product/);
      expectJsonError(await app.inject({ url: minifestPath('nothing') }), 404, /Unknown product/);
      expectJsonError(await app.inject({ url: '/metadata/v1.0/a%20b/minifest.json' }), 400, /dir/);
    });
  });

  describe('products', () => {
    it('lists only the products with data, each with the minifest its own address answers', async () => {
      const response = await app.inject({ url: '/metadata/v1.0/products.json' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=60');
      const own = (await app.inject({ url: minifestPath('demo') })).json();
      expect(response.json()).toEqual({ products: [{ ident: 'demo', directory: 'demo', ref: '2025112600', demo: true, minifest: own }] });
    });
  });

  describe('tiles', () => {
    it('sends the stored gzip bytes with immutable caching, and the tile decodes to the point values', async () => {
      const response = await app.inject({ url: tileUrl(), headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/Accept-Encoding/i);
      expect(response.headers.etag).toMatch(/^".+"$/);
      expectIsolationHeaders(response);
      const tile = decodeDataTile(gunzipSync(response.rawPayload));
      expect(tile.header.channels).toBe(2);
      const { west, north, east, south } = tileBounds({ z: 1, x: 2, y: 0 });
      for (const [j, i] of [[0, 0], [100, 37], [255, 255], [128, 200]]) {
        const lat = north - (j * (north - south)) / (TILE_NODES - 1);
        const lon = west + (i * (east - west)) / (TILE_NODES - 1);
        const point = evaluatePoint(lat, lon, VALID);
        expect(tile.channels[0][j * TILE_NODES + i]).toBeCloseTo(point.u, 2);
        expect(tile.channels[1][j * TILE_NODES + i]).toBeCloseTo(point.v, 2);
      }
    });

    it.each(['gust', 'temp', 'pressure', 'rain', 'clouds'])('serves the %s file', async (file) => {
      const response = await app.inject({ url: tileUrl({ file }), headers: { 'accept-encoding': 'gzip' } });
      expect(response.statusCode).toBe(200);
      expect(decodeDataTile(gunzipSync(response.rawPayload)).header.channels).toBe(1);
    });

    it('inflates for a client that does not accept gzip', async () => {
      for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, br' }]) {
        const response = await app.inject({ url: tileUrl({ file: 'temp' }), headers });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(decodeDataTile(response.rawPayload).header.channels).toBe(1);
      }
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await app.inject({ url: tileUrl(), headers: { 'accept-encoding': 'gzip' } });
      const again = await app.inject({ url: tileUrl(), headers: { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.byteLength).toBe(0);
    });

    it.each([
      ['an unknown directory', tileUrl({ directory: 'nothing' }), 404, /Unknown product/],
      ['a product without data', tileUrl({ directory: 'gfs' }), 404, /GFS/],
      ['an unknown file', tileUrl({ file: 'waves' }), 404, /Unknown tile file "waves"/],
      ['an unknown level', tileUrl({ level: '850h' }), 404, /Level "850h"/],
      ['another suffix', tileUrl({ suffix: 'png' }), 404, /\.tile, not \.png/],
      ['an old run', tileUrl({ refTime: REF - 12 * HOUR_MS, validTime: REF }), 404, /current run is 2025112600/],
      ['a valid time before the run', tileUrl({ validTime: REF - HOUR_MS }), 404, /not a step/],
      ['a valid time after the run', tileUrl({ validTime: REF + 241 * HOUR_MS }), 404, /not a step/],
      ['a zoom above the product maximum', tileUrl({ z: 3, x: 0, y: 0 }), 404, /up to data zoom 2/],
      ['a column outside the pyramid', tileUrl({ z: 1, x: 4, y: 0 }), 404, /outside the pyramid/],
      ['a row outside the pyramid', tileUrl({ z: 0, x: 0, y: 1 }), 404, /outside the pyramid/],
    ])('answers 404 for %s', async (_name, url, status, message) => {
      expectJsonError(await app.inject({ url }), status, message);
    });

    it.each([
      ['a malformed reference time', `/tiles/v1.0/demo/2025-11-26/${hourStamp(VALID)}/1/2/0/wind-surface.tile`, /ref/],
      ['an impossible hour stamp', `/tiles/v1.0/demo/2025113300/${hourStamp(VALID)}/1/2/0/wind-surface.tile`, /not a valid hour stamp/],
      ['an impossible valid time', `/tiles/v1.0/demo/${hourStamp(REF)}/2025112625/1/2/0/wind-surface.tile`, /not a valid hour stamp/],
      ['a fractional zoom', `/tiles/v1.0/demo/${hourStamp(REF)}/${hourStamp(VALID)}/1.5/2/0/wind-surface.tile`, /z/],
      ['a negative column', `/tiles/v1.0/demo/${hourStamp(REF)}/${hourStamp(VALID)}/1/-2/0/wind-surface.tile`, /x/],
      ['a file name without level', `/tiles/v1.0/demo/${hourStamp(REF)}/${hourStamp(VALID)}/1/2/0/wind.tile`, /file/],
    ])('answers 400 for %s', async (_name, url, message) => {
      expectJsonError(await app.inject({ url }), 400, message);
    });
  });

  describe('point forecast', () => {
    it('returns every free step of the run (3-hourly, days 0 to 5, SPEC §6 and §9), equal to the point values', async () => {
      const response = await app.inject({ url: '/forecast/point/demo/v2.9/50.1/14.4' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      // Without step, a free caller gets the free default of 3 hours (SPEC §9).
      expect(body.header).toEqual({
        product: 'demo', refTime: REF, lat: 50.1, lon: 14.4, step: 3, modelStep: 1, demo: true,
        units: { wind: 'm/s', gust: 'm/s', temp: 'K', pressure: 'Pa', rain: 'mm/h', clouds: '%' },
      });
      // Without a Premium token the answer ends before day index 6 (server/routes/premium.test.ts).
      expect(body.ts).toHaveLength(48);
      expect(body.ts[0]).toBe(REF);
      expect(body.ts[47]).toBe(REF + 141 * HOUR_MS);
      for (const name of ['wind_u', 'wind_v', 'gust', 'temp', 'pressure', 'rain', 'clouds']) expect(body.data[name]).toHaveLength(48);
      const k = 9;
      const point = evaluatePoint(50.1, 14.4, body.ts[k]);
      expect(body.data.wind_u[k]).toBeCloseTo(point.u, 2);
      expect(body.data.wind_v[k]).toBeCloseTo(point.v, 2);
      expect(body.data.temp[k]).toBeCloseTo(point.temp, 2);
      expect(body.data.pressure[k]).toBeCloseTo(point.pressure, 0);
      expect(body.data.clouds[k]).toBeCloseTo(point.clouds, 1);
      expect(body.data.gust[k]).toBeCloseTo(point.gust, 2);
      expect(body.data.rain[k]).toBeCloseTo(point.rain, 2);
      expectIsolationHeaders(response);
    });

    it('wraps longitude and thins to 3-hour steps on request', async () => {
      const body = (await app.inject({ url: '/forecast/point/demo/v2.9/-33.9/511.2?step=3&token=x' })).json();
      expect(body.header.lon).toBeCloseTo(151.2, 9);
      expect(body.ts).toHaveLength(48);
      expect(body.ts[1] - body.ts[0]).toBe(3 * HOUR_MS);
    });

    it('compresses the JSON for clients that accept it, with gzip where brotli would cost more CPU for the same bytes', async () => {
      const response = await app.inject({ url: '/forecast/point/demo/v2.9/10/20', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(response.rawPayload).toString()).ts).toHaveLength(48);
    });

    it.each([
      ['a latitude above 90', '/forecast/point/demo/v2.9/91/10', 400, /lat/],
      ['a latitude that is not a number', '/forecast/point/demo/v2.9/abc/10', 400, /lat/],
      ['a longitude beyond ±720', '/forecast/point/demo/v2.9/10/1000', 400, /lon/],
      // Issue 12: Number() takes these, the coordinate grammar does not (they gave a 500 or a 200 full of nulls).
      ['a latitude of Infinity', '/forecast/point/demo/v2.9/Infinity/10', 400, /lat "Infinity" is not a latitude/],
      ['a longitude of Infinity', '/forecast/point/demo/v2.9/10/Infinity', 400, /lon "Infinity" is not a longitude/],
      ['a longitude of 1e400', '/forecast/point/demo/v2.9/10/1e400', 400, /lon "1e400"/],
      ['a longitude of -1e999', '/forecast/point/demo/v2.9/10/-1e999', 400, /lon "-1e999"/],
      ['a hexadecimal latitude', '/forecast/point/demo/v2.9/0x10/10', 400, /lat "0x10"/],
      ['a latitude in exponent form out of range', '/forecast/point/demo/v2.9/1e2/10', 400, /lat "1e2"/],
      ['an unsupported step', '/forecast/point/demo/v2.9/10/10?step=2', 400, /step/],
      ['a product without data', '/forecast/point/ecmwf/v2.9/10/10', 404, /ECMWF IFS/],
      ['an unknown product', '/forecast/point/nothing/v2.9/10/10', 404, /Unknown product/],
    ])('rejects %s', async (_name, url, status, message) => {
      expectJsonError(await app.inject({ url }), status, message);
    });
  });

  it('answers unknown paths with a JSON 404 that carries the isolation headers (no built app)', async () => {
    const response = await app.inject({ url: '/50.1/14.2', headers: { accept: 'text/html' } });
    expectJsonError(response, 404, /No route/);
    expectIsolationHeaders(response);
  });

  it('prewarms the steps around now', () => {
    expect(stepsAroundNow(NOW)).toEqual([REF + 7 * HOUR_MS, REF + 8 * HOUR_MS, REF + 6 * HOUR_MS]);
    expect(stepsAroundNow(REF + 10 * 60_000)).toEqual([REF, REF + HOUR_MS, REF + 2 * HOUR_MS]);
  });
});

describe('static app', () => {
  let app: FastifyInstance;
  let dist: string;
  const INDEX = '<!doctype html><html><head><title>Isobar</title></head><body><div id="root"></div></body></html>';
  const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'isobar-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-3f9a1c.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'engine-77ab.wasm'), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // A file with its build-time Brotli sibling (assets/build/precompress.ts).
    writeFileSync(join(dist, 'assets', 'worker-9c1d.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'worker-9c1d.js.br'), brotliCompressSync(SCRIPT));
    app = await buildApp({ now: () => NOW, distDir: dist, prewarm: false, dataDir: null });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html at / without caching', async () => {
    const response = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(INDEX);
    expectIsolationHeaders(response);
  });

  it.each(['/50.1/14.2', '/fr/settings', '/50.123/-14.2/gfs/meteogram?name=x'])('falls back to index.html for the client route %s', async (url) => {
    const response = await app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-cache');
    expectIsolationHeaders(response);
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const response = await app.inject({ url: '/assets/index-3f9a1c.js', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the stored Brotli copy of a precompressed asset as it is', async () => {
    const response = await app.inject({ url: '/assets/worker-9c1d.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.equals(readFileSync(join(dist, 'assets', 'worker-9c1d.js.br')))).toBe(true);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    // A client without Brotli gets gzip made on the fly, one without any encoding the file itself.
    const gzipped = await app.inject({ url: '/assets/worker-9c1d.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    const plain = await app.inject({ url: '/assets/worker-9c1d.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends WebAssembly as application/wasm', async () => {
    const response = await app.inject({ url: '/assets/engine-77ab.wasm' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/wasm');
    expectIsolationHeaders(response);
  });

  it('revalidates files that are not hashed', async () => {
    const response = await app.inject({ url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('never answers API paths or non-HTML requests with the app', async () => {
    expectJsonError(await app.inject({ url: '/tiles/v1.0/nothing', headers: { accept: 'text/html' } }), 404, /No route/);
    expectJsonError(await app.inject({ url: '/api/nothing', headers: { accept: 'text/html' } }), 404, /No route/);
    expectJsonError(await app.inject({ url: '/missing.js', headers: { accept: '*/*' } }), 404, /No route/);
    expectJsonError(await app.inject({ method: 'POST', url: '/50.1/14.2', headers: { accept: 'text/html' } }), 404, /No route/);
  });

  it('still serves the data API', async () => {
    expect((await app.inject({ url: minifestPath('demo') })).statusCode).toBe(200);
  });
});
