import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASEMAPS_ANSWER, BASEMAPS_PATH, basemapArchivePath } from '../../common/api/basemaps.ts';
import { schemaProblem } from '../../common/api/schema.ts';
import { buildVectorArchive, sampleBasemapLayers } from '../../tests/pmtilesArchive.ts';
import { PMTiles } from 'pmtiles';
import { buildApp } from '../app.ts';
import { basemapConfigFromEnv, parseByteRange } from './basemaps.ts';

describe('tile base map configuration', () => {
  let dir: string;
  let archive: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-basemaps-'));
    archive = join(dir, 'planet.pmtiles');
    await writeFile(archive, buildVectorArchive(sampleBasemapLayers(), 1, 3));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a raster template, an archive URL and a local archive (its zooms from its header)', async () => {
    const config = await basemapConfigFromEnv({
      ISOBAR_BASEMAP_SATELLITE: 'https://tiles.example/sat/{z}/{x}/{y}.jpg',
      ISOBAR_BASEMAP_WINTER: 'https://maps.example/winter.pmtiles',
      ISOBAR_BASEMAP_OUTDOOR: archive,
      ISOBAR_BASEMAP_ATTRIBUTION: '© OpenStreetMap',
    });
    expect(config.satellite?.source).toEqual({ kind: 'raster', url: 'https://tiles.example/sat/{z}/{x}/{y}.jpg', minZoom: 0, maxZoom: 19, attribution: '© OpenStreetMap' });
    expect(config.winter?.source).toMatchObject({ kind: 'pmtiles', url: 'https://maps.example/winter.pmtiles' });
    expect(config.outdoor).toEqual({ source: { kind: 'pmtiles', url: '/basemap/v1/outdoor.pmtiles', minZoom: 1, maxZoom: 3, attribution: '© OpenStreetMap' }, file: archive });
    expect(config.topoMap).toBeUndefined();
  });

  it('stops with the variable named for a value that is none of the forms, or a file that is not an archive', async () => {
    await expect(basemapConfigFromEnv({ ISOBAR_BASEMAP_OUTDOOR: 'https://tiles.example/{z}/{x}.png' })).rejects.toThrow(/ISOBAR_BASEMAP_OUTDOOR=.*\{z\}, \{x\} and \{y\}/);
    const notArchive = join(dir, 'fake.pmtiles');
    await writeFile(notArchive, 'not an archive at all, just some text that is long enough to fill a header of 127 bytes ....................................');
    await expect(basemapConfigFromEnv({ ISOBAR_BASEMAP_WINTER: notArchive })).rejects.toThrow(/ISOBAR_BASEMAP_WINTER=.*not a PMTiles v3 archive/);
    await expect(basemapConfigFromEnv({ ISOBAR_BASEMAP_WINTER: join(dir, 'missing.pmtiles') })).rejects.toThrow(/ISOBAR_BASEMAP_WINTER=/);
  });

  it('parses single byte ranges within the size', () => {
    expect(parseByteRange('bytes=0-16383', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseByteRange('bytes=10-19', 1000)).toEqual({ start: 10, end: 19 });
    expect(parseByteRange('bytes=990-', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-10', 1000)).toEqual({ start: 990, end: 999 });
    for (const bad of ['bytes=1000-1001', 'bytes=20-10', 'bytes=-', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-0']) expect(parseByteRange(bad, 1000), bad).toBeNull();
  });

  describe('the routes', () => {
    let app: FastifyInstance;
    let bytes: Uint8Array;
    beforeAll(async () => {
      bytes = buildVectorArchive(sampleBasemapLayers(), 1, 3);
      await writeFile(archive, bytes);
      const basemaps = await basemapConfigFromEnv({ ISOBAR_BASEMAP_OUTDOOR: archive, ISOBAR_BASEMAP_SATELLITE: 'https://tiles.example/{z}/{x}/{y}.png' });
      app = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null, basemaps });
    });
    afterAll(() => app.close());

    it('lists the configured base maps only', async () => {
      const response = await app.inject({ url: BASEMAPS_PATH });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(schemaProblem(BASEMAPS_ANSWER, body)).toBeNull();
      expect(Object.keys(body.sources).sort()).toEqual(['outdoor', 'satellite']);
      expect(body.sources.outdoor.url).toBe(basemapArchivePath('outdoor'));
    });

    it('lets the worker fetch the configured hosts (Content-Security-Policy connect-src), nothing more', async () => {
      const csp = String((await app.inject({ url: BASEMAPS_PATH })).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' https://tiles.example;");
      expect(csp.match(/https?:\/\/[^\s;']+/g)).toEqual(['https://tiles.example']);
    });

    it('serves a local archive by byte range, uncompressed', async () => {
      const response = await app.inject({ url: basemapArchivePath('outdoor'), headers: { range: 'bytes=7-126', 'accept-encoding': 'gzip' } });
      expect(response.statusCode).toBe(206);
      expect(response.headers['content-range']).toBe(`bytes 7-126/${bytes.length}`);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(new Uint8Array(response.rawPayload)).toEqual(bytes.subarray(7, 127));
      const whole = await app.inject({ url: basemapArchivePath('outdoor') });
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.length).toBe(bytes.length);
    });

    it('answers 416 for a range outside the archive and 404 for a style without a local archive', async () => {
      const outside = await app.inject({ url: basemapArchivePath('outdoor'), headers: { range: `bytes=${bytes.length}-${bytes.length + 10}` } });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
      expect((await app.inject({ url: basemapArchivePath('satellite') })).statusCode).toBe(404);
      expect((await app.inject({ url: basemapArchivePath('nothing') })).statusCode).toBe(404);
      expect((await app.inject({ url: '/basemap/v1/..%2Fetc.pmtiles' })).statusCode).toBe(400);
    });

    it('is read by a PMTiles reader through the server', async () => {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const reader = new PMTiles(`${address}${basemapArchivePath('outdoor')}`);
      expect(await reader.getHeader()).toMatchObject({ minZoom: 1, maxZoom: 3, tileType: 1 });
      expect((await reader.getZxy(2, 2, 1))?.data.byteLength).toBeGreaterThan(100);
    });
  });
});
