/**
 * The radar overlay end to end (issue 15 §1): real radar frames published by the server's own
 * publication code (server/obs/radar/publish.ts) into the end-to-end server's data directory, which
 * serves them as it would a live source's: DWD RADOLAN RX (2014-08-10 20:50 UTC), the RADVOR RV
 * nowcast (2022-10-18 07:00 UTC) and NOAA MRMS (2023-04-06 12:00 UTC) of ../shared/data/obs/radar. The fixtures are years old and the
 * server keeps a year of history by its own clock, so each is published dated relative to now:
 * the RX composite and MRMS 5 minutes ago (the live window), RX again 3 hours ago (the archive), the
 * RADVOR analysis 5 minutes ago with its forecasts after it. Every value drawn is the fixtures'.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { HOUR_MS, MINUTE_MS } from '../common/time.ts';
import { ObsStore } from '../server/obs/core/store.ts';
import { publishRadar, ARCHIVE_MINIFEST } from '../server/obs/radar/publish.ts';
import { readRadolan } from '../server/obs/radar/radolan.ts';
import { readRadvorFile } from '../server/obs/radar/radvor.ts';
import { readMrms } from '../server/obs/radar/mrms.ts';
import { loadEngine } from '../server/ingest/engine.ts';
import { diffRatio, mapClip, screenshotPixels, stats, type Pixels } from './testing.ts';
import { gunzipSync } from 'node:zlib';

const OBS = fileURLToPath(new URL('../../shared/data/obs/radar/', import.meta.url));
const RX = `${OBS}dwd_radolan-rx_201408102050_raa01-rx_10000-1408102050-dwd---bin.gz`;
const RV = `${OBS}dwd_radvor-rv_202210180700_DE1200_RV2210180700.tar.bz2`;
const MRMS = `${OBS}mrms_ReflectivityAtLowestAltitude_00.50_20230406-120039.grib2.gz`;
const present = existsSync(RX) && existsSync(RV) && existsSync(MRMS);
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error(`radar fixtures missing under ${OBS} (ISOBAR_REQUIRE_FIXTURES=1)`);
const DATA_DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e');
/** Nowcast frames published: the analysis and 11 forecasts, 5 minutes apart (a 12-frame animation). */
const NOWCAST_FRAMES = 12;

interface RadarState {
  steps: number;
  index: number;
  time: number | null;
}

async function radarState(page: Page): Promise<RadarState> {
  return page.evaluate(() => {
    const { radar } = (window as unknown as { isobar: { app: { radar: {
      steps: { value: unknown[] }; index: { value: number }; step: { value: { time: number } | null };
    } } } }).isobar.app;
    return { steps: radar.steps.value.length, index: radar.index.value, time: radar.step.value?.time ?? null };
  });
}

/** Pixels drawn in the radar's colours: saturated (the base map is grey). */
function radarPixels(p: Pixels): number {
  let n = 0;
  for (let i = 0; i < p.data.length; i += 4) {
    const r = p.data[i];
    const g = p.data[i + 1];
    const b = p.data[i + 2];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 90) n++;
  }
  return n;
}

test.describe('radar', () => {
  test.skip(!present, 'radar fixtures missing');
  let archiveId = '';

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const store = new ObsStore(DATA_DIR);
    await store.remove('radar', 'minifest2.json').catch(() => undefined);
    await store.remove('radar', ARCHIVE_MINIFEST).catch(() => undefined);
    const now = Date.now();
    const rx = readRadolan(gunzipSync(await readFile(RX)));
    const source = { id: 'radolan', label: 'DWD RADOLAN', attribution: 'Source: Deutscher Wetterdienst (DWD)', latest: null };
    const archived = await publishRadar(store, { source, observed: [{ ...rx, time: now - 3 * HOUR_MS }], now });
    archiveId = archived.frames.length === 0 ? (await store.readJson<{ frames: { id: string }[] }>('radar', ARCHIVE_MINIFEST))!.frames[0].id : '';
    await publishRadar(store, { source, observed: [{ ...rx, time: now - 5 * MINUTE_MS }], now });
    const rv = (await readRadvorFile(RV)).slice(0, NOWCAST_FRAMES);
    const analysis = rv[0].time;
    const radvor = { id: 'radvor', label: 'DWD RADVOR', attribution: 'Source: Deutscher Wetterdienst (DWD)', latest: null };
    await publishRadar(store, { source: radvor, observed: [], nowcast: rv.map((f) => ({ ...f, time: now - 5 * MINUTE_MS + (f.time - analysis) })), now });
    // NOAA MRMS over the US (2023-04-06 12:00 UTC), observed at the same time as the RX composite.
    const mrms = await readMrms(await loadEngine(), new Uint8Array(await readFile(MRMS)));
    await publishRadar(store, { source: { id: 'mrms', label: 'NOAA MRMS', attribution: 'NOAA/NSSL MRMS (public domain)', latest: null }, observed: [{ ...mrms, time: now - 5 * MINUTE_MS }], now });
  });

  test('draws the radar over Germany with its legend, animates the frames, and the archive is Premium', async ({ page, request }) => {
    await page.goto('/?radar,51.000,10.000,5');
    await expect(page.getByTestId('radar-timeline')).toHaveAttribute('data-frames', String(NOWCAST_FRAMES));
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await stats(page)).frames, { timeout: 10_000 }).toBeGreaterThan(0);
    const shown = await radarState(page);
    // The newest observation shows first: the RX composite of 5 minutes ago.
    expect(shown.index).toBe(0);
    // Its age: published 5 minutes before the test started (publication itself takes a while).
    await expect(page.getByTestId('radar-age')).toHaveText(/^\d+ min ago$/);
    const age = Number((await page.getByTestId('radar-age').textContent())!.split(' ')[0]);
    // (The label is refreshed every 30 s, so it may be a minute behind.)
    expect(Math.abs(age - (Date.now() - shown.time!) / MINUTE_MS)).toBeLessThanOrEqual(1);
    await expect(page.getByTestId('radar-attribution')).toContainText('Deutscher Wetterdienst');
    // Both providers of the first step (one composite): RADOLAN over Germany and MRMS over the US.
    await expect(page.getByTestId('radar-attribution')).toContainText('NOAA/NSSL MRMS');

    // Drawn over Germany, nothing over Ireland and the Irish Sea (outside every provider's coverage).
    const size = page.viewportSize()!;
    const germany = await screenshotPixels(page, { x: size.width / 2 - 120, y: size.height / 2 - 120, width: 240, height: 240 });
    const atlantic = await screenshotPixels(page, { x: 150, y: 180, width: 120, height: 100 });
    await page.screenshot({ path: test.info().outputPath('radarui-germany.png') });
    expect(radarPixels(germany)).toBeGreaterThan(500);
    expect(radarPixels(atlantic)).toBe(0);
    // The same step over the US: MRMS drawn there.
    await page.evaluate(() => (window as unknown as { isobar: { app: { map: { moveTo(p: { lat: number; lon: number }): void } } } }).isobar.app.map.moveTo({ lat: 38, lon: -95 }));
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => radarPixels(await screenshotPixels(page, { x: size.width / 2 - 300, y: size.height / 2 - 150, width: 600, height: 300 })), { timeout: 15_000 }).toBeGreaterThan(500);
    await page.screenshot({ path: test.info().outputPath('radarui-us.png') });
    await page.evaluate(() => (window as unknown as { isobar: { app: { map: { moveTo(p: { lat: number; lon: number }): void } } } }).isobar.app.map.moveTo({ lat: 51, lon: 10 }));
    // The coverage outline (coverage.json) is read and handed to the worker with the frames.
    expect(await page.evaluate(() => (window as unknown as { isobar: { app: { radar: { coverage: { value: { sources: { id: string }[] } | null } } } } })
      .isobar.app.radar.coverage.value?.sources.map((s) => s.id).sort())).toEqual(['mrms', 'radolan', 'radvor']);
    // The picker's value is dBZ with the rain rate.
    const sample = await page.evaluate(() => (window as unknown as { isobar: { render(): { sampleAt(p: { lon: number; lat: number }): Promise<{ metric: string }> } } })
      .isobar.render().sampleAt({ lon: 10, lat: 51 }));
    expect(sample.metric).toBe('reflectivity');

    // Legend: dBZ lines with the rain rate under them (Marshall-Palmer: 30 dBZ is 2.7 mm/h).
    await expect(page.getByTestId('legend')).toHaveAttribute('data-unit', 'dBZ');
    await expect(page.getByTestId('legend-rate-unit')).toHaveText('mm/h');
    await expect(page.getByTestId('legend-rate')).toContainText('2.7');

    // Playing moves through the frames into the nowcast, marked as such.
    await page.getByTestId('radar-play').click();
    await expect.poll(async () => (await radarState(page)).index, { timeout: 10_000 }).toBeGreaterThan(2);
    await page.getByTestId('radar-play').click();
    // Paused (playback loops through the 12 frames, so the index paused at may be any).
    expect(await page.evaluate(() => (window as unknown as { isobar: { app: { radar: { playing: { value: boolean } } } } }).isobar.app.radar.playing.value)).toBe(false);
    await page.evaluate(() => (window as unknown as { isobar: { app: { radar: { setIndex(i: number): void } } } }).isobar.app.radar.setIndex(6));
    await expect(page.getByTestId('radar-nowcast')).toBeVisible();
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    await page.screenshot({ path: test.info().outputPath('radarui-nowcast.png') });

    // A free user: the archive frame is refused and the archive lists nothing; radar-plus shows the archive segment as Premium.
    expect(archiveId).not.toBe('');
    const refused = await request.get(`/obs/v1.0/radar/frames/${archiveId}/0/1/0.tile`);
    expect(refused.status()).toBe(403);
    expect((await (await request.get('/obs/v1.0/radar/archive/minifest2.json')).json()).frames).toEqual([]);
    await page.goto('/radarPlus');
    await expect(page.getByTestId('radar-segments')).toBeVisible();
    await expect(page.locator('[data-segment="archive"]')).toBeDisabled();
    await expect(page.locator('[data-segment="archive"]')).toContainText('Premium');
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    // The radar-plus window lists the providers with their attribution.
    await expect(page.locator('[data-testid="radar-sources"] [data-source="radolan"]')).toContainText('Deutscher Wetterdienst');
    await expect(page.locator('[data-testid="radar-sources"] [data-source="radvor"]')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('radarui-radarplus.png') });
  });

  test('a loop played once more shows each step from a kept picture, the same as one drawn afresh', async ({ page }) => {
    await page.goto('/?radar,51.000,10.000,5');
    await expect(page.getByTestId('radar-timeline')).toHaveAttribute('data-frames', String(NOWCAST_FRAMES));
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    /** Shows step i and waits until the worker has drawn it with every tile in. */
    const show = async (i: number) => {
      const before = (await stats(page)).frames;
      await page.evaluate((k) => (window as unknown as { isobar: { app: { radar: { setIndex(n: number): void } } } }).isobar.app.radar.setIndex(k), i);
      await expect.poll(async () => {
        const s = await stats(page);
        return s.frames > before && s.tiles.loading === 0;
      }, { timeout: 15_000 }).toBe(true);
    };
    // The first loop loads the tiles; the second draws each step with all of them in, and keeps it.
    for (let loop = 0; loop < 2; loop++) {
      for (let i = 1; i <= NOWCAST_FRAMES; i++) await show(i % NOWCAST_FRAMES);
    }
    expect((await stats(page)).staticKept).toBe(NOWCAST_FRAMES);
    const clip = mapClip(page);
    await show(6);
    const kept = await screenshotPixels(page, clip);
    expect(radarPixels(kept)).toBeGreaterThan(500);

    // Moving the map forgets every kept picture (they are of the old view); back where it was,
    // step 6 is drawn afresh: the same pixels.
    const moveTo = (lat: number, lon: number) => page.evaluate((p) => (window as unknown as { isobar: { app: { map: { moveTo(q: { lat: number; lon: number }): void } } } }).isobar.app.map.moveTo(p), { lat, lon });
    await moveTo(52, 12);
    await expect.poll(async () => (await stats(page)).staticKept, { timeout: 10_000 }).toBeLessThanOrEqual(1);
    await moveTo(51, 10);
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    await show(5);
    await show(6);
    const fresh = await screenshotPixels(page, clip);
    expect(diffRatio(kept, fresh, 2)).toBeLessThan(0.001);
  });

  test('on the globe the radar draws where it does on the flat map', async ({ page }) => {
    await page.goto('/?radar,51.000,10.000,4');
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    const flatFrames = (await stats(page)).frames;
    await page.getByTestId('globe-open').click();
    await expect.poll(async () => (await stats(page)).frames, { timeout: 10_000 }).toBeGreaterThan(flatFrames);
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 30_000 }).toBe(0);
    // Germany at the globe's centre: RADOLAN's echoes there; none over the South Atlantic below.
    const size = page.viewportSize()!;
    await expect.poll(async () => radarPixels(await screenshotPixels(page, { x: size.width / 2 - 60, y: size.height / 2 - 60, width: 120, height: 120 })), { timeout: 15_000 }).toBeGreaterThan(300);
    expect(radarPixels(await screenshotPixels(page, { x: size.width / 2 - 60, y: size.height - 150, width: 120, height: 60 }))).toBe(0);
    await page.screenshot({ path: test.info().outputPath('radar-globe.png') });
  });
});
