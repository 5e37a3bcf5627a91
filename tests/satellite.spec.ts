/**
 * The satellite overlay end to end (issue 15 §2). No GOES ABI fixture exists: the test writes a
 * GOES-East ABI L2 MCMIPF file the PUG's way (server/obs/satellite/testing.ts writeAbiFile: bands 2
 * and 13 of a made-up cloud field on the ABI fixed grid, scanned four minutes ago), serves it from
 * the fixture server in the NOAA bucket layout, and the real GOES source (list, fetch, read,
 * day/night composite, tiles, info.json) publishes it into the data directory of a server of this
 * test's own. Before that the server follows no satellite: the overlay says which setting turns
 * it on, and draws no weather. Once published, the frame is drawn: pixels change inside the
 * frame's bounds and nowhere else, the credit names the satellite, the picker gives the infrared
 * temperature. The same server follows no radar either: the radar overlay says which setting turns
 * it on, and leaves the forecast shown before it off the map.
 */

import type { ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import type { SatelliteInfo } from '../common/satellite.ts';
import { startAppServer, stopAppServer } from './appServer.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { abiHourPrefix, SATELLITE_FACTORIES } from '../server/obs/satellite/goesSource.ts';
import { writeAbiFile } from '../server/obs/satellite/testing.ts';
import { changedMask, obsTestContext, type Pixels, screenOf, screenshotPixels, settled, stats } from './testing.ts';

const PORT = Number(process.env.ISOBAR_E2E_PORT ?? 8093) + 4;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e', 'satellite');
/** Scan start: four minutes ago, whole seconds (the server's free tier shows the last two hours). */
const SCAN = Math.floor((Date.now() - 4 * 60_000) / 1000) * 1000;

/** A cloud field: bands of cold high cloud (down to 215 K) over warm ground (295 K), bright where cloudy. */
const cloud = (lon: number, lat: number) => Math.max(0, Math.sin((lon * Math.PI) / 18) * Math.cos((lat * Math.PI) / 30));
const ir = (lon: number, lat: number) => 295 - 80 * cloud(lon, lat);
const vis = (lon: number, lat: number) => 0.08 + 0.7 * cloud(lon, lat);

/** The NOAA bucket key of an MCMIPF scan (goesSource.ts NAME): s/e/c stamps as year, day of year, time, tenths. */
function abiKey(start: number): string {
  const d = new Date(start);
  const doy = abiHourPrefix('MCMIPF', start).split('/')[2];
  const hms = d.toISOString().slice(11, 19).replace(/:/g, '');
  const stamp = `${d.getUTCFullYear()}${doy}${hms}0`;
  return `${abiHourPrefix('MCMIPF', start)}OR_ABI-L2-MCMIPF-M6_G19_s${stamp}_e${stamp}_c${stamp}.nc`;
}

const changed = (a: Pixels, b: Pixels): Uint8Array => changedMask(a, b, 30);

/** Waits until two pictures in a row are the same, and returns the last. */
async function still(page: Page, clip: { x: number; y: number; width: number; height: number }): Promise<Pixels> {
  await settled(page);
  let last = await screenshotPixels(page, clip);
  await expect.poll(async () => {
    const next = await screenshotPixels(page, clip);
    const moved = changed(last, next).reduce((a, b) => a + b, 0);
    last = next;
    return moved;
  }, { timeout: 15_000, intervals: [100, 200] }).toBe(0);
  return last;
}

const setOverlay = (page: Page, ident: string) => page.evaluate((o) => (window as unknown as { isobar: { app: { layer: { setOverlay(o: string): boolean } } } }).isobar.app.layer.setOverlay(o), ident);

/** en-US: a region that needs no cookie consent, so no consent window appears between two pictures. */
test.use({ locale: 'en-US' });

test.describe('satellite', () => {
  let fixture: FixtureServer;
  let server: ChildProcess | null = null;

  test.beforeAll(async () => {
    await rm(DATA_DIR, { recursive: true, force: true });
    await mkdir(DATA_DIR, { recursive: true });
    fixture = await FixtureServer.start();
    fixture.put(`/${abiKey(SCAN)}`, await writeAbiFile({
      platform: 'G19', lon0: -75.2, start: new Date(SCAN), cells: 240,
      bands: [{ band: 2, wavelengthUm: 0.64, field: vis }, { band: 13, wavelengthUm: 10.33, field: ir }],
    }));
  });
  test.afterAll(async () => {
    if (server) await stopAppServer(server);
    await fixture?.close();
  });

  test('says which setting turns it on, then draws the published frame inside its bounds only, with its credit, legend and picker', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await mkdir(testInfo.outputDir, { recursive: true });
    server = await startAppServer({ port: PORT, dataDir: DATA_DIR, log: testInfo.outputPath('server.log'), env: { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'none' } });

    // No satellite source: info.json is 404 and the overlay says so, naming the setting.
    expect((await fetch(`${BASE}/obs/v1.0/satellite/info.json`)).status).toBe(404);
    await page.goto(`${BASE}/?satellite,15.000,-75.000,3`);
    await expect(page.getByTestId('satellite-unconfigured')).toContainText('ISOBAR_OBS=goesEast,goesWest', { timeout: 30_000 });
    await expect(page.getByTestId('satellite-legend-bar')).toBeVisible();
    // The labels, and the right column of controls, which stands on the bottom controls and moves
    // up with them when the satellite timeline shows: only the map is compared.
    await page.addStyleTag({ content: '.city-label, .city-labels, .map-controls-right { visibility: hidden !important; }' });
    await expect.poll(async () => (await stats(page).catch(() => null))?.frames ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    // Above the credit line "Forecast by", which moves up when the timeline shows.
    const clip = { x: 0, y: 60, width: 1280, height: 495 };
    // No weather under the satellite overlay's name: the base map alone.
    const before = await still(page, clip);
    await page.screenshot({ path: testInfo.outputPath('satellite-unconfigured.png') });

    // The real GOES-East source publishes the scan (list, fetch, read, composite, tiles, info.json).
    const source = SATELLITE_FACTORIES.goesEast.create({ ISOBAR_GOES_EAST_URL: fixture.url, ISOBAR_SATELLITE_MAX_ZOOM: '2' });
    await source.poll(obsTestContext(DATA_DIR, Date.now()));
    const info = await (await fetch(`${BASE}/obs/v1.0/satellite/info.json`)).json() as SatelliteInfo;
    expect(info.frames).toHaveLength(1);
    const [frame] = info.frames;
    expect(frame).toMatchObject({ source: 'goesEast', time: SCAN });

    // Chosen again, the overlay reads info.json now (else on its 3-minute interval).
    await setOverlay(page, 'wind');
    await setOverlay(page, 'satellite');
    const timeline = page.getByTestId('satellite-timeline');
    await expect(timeline).toHaveAttribute('data-frames', '1', { timeout: 30_000 });
    await expect(timeline).toHaveAttribute('data-time', String(SCAN));
    await expect(timeline).toHaveAttribute('data-stale', 'false');
    await expect(page.getByTestId('satellite-age')).toHaveText(/^\d+ min ago$/);
    const age = Number((await page.getByTestId('satellite-age').textContent())!.split(' ')[0]);
    expect(age).toBeGreaterThanOrEqual(4);
    expect(age).toBeLessThanOrEqual(Math.ceil((Date.now() - SCAN) / 60_000));
    await expect(page.getByTestId('satellite-credit')).toContainText('GOES-East (NOAA)');
    await expect(page.getByTestId('satellite-credit')).toContainText('NOAA GOES-R ABI');
    // Free users are offered the archive as Premium.
    await expect(page.locator('[data-testid="satellite-ranges"] [data-range="archive"]')).toBeDisabled();

    // Drawn once the tiles are in: many pixels change; then the picture is still.
    await expect.poll(async () => changed(before, await screenshotPixels(page, clip)).reduce((a, b) => a + b, 0), { timeout: 30_000 }).toBeGreaterThan(100_000);
    const after = await still(page, clip);
    await page.screenshot({ path: testInfo.outputPath('satellite-flat.png') });
    const mask = changed(before, after);
    const nw = await screenOf(page, frame.bounds.west, frame.bounds.north);
    const se = await screenOf(page, frame.bounds.east, frame.bounds.south);
    const margin = 3;
    let inside = 0;
    let outside = 0;
    const outsideBox = [1e9, 1e9, -1, -1];
    for (let y = 0; y < clip.height; y++) {
      for (let x = 0; x < clip.width; x++) {
        if (!mask[y * clip.width + x]) continue;
        const px = x + clip.x;
        const py = y + clip.y;
        if (px < nw.x - margin || px > se.x + margin || py < nw.y - margin || py > se.y + margin) {
          outside++;
          outsideBox.splice(0, 4, Math.min(outsideBox[0], px), Math.min(outsideBox[1], py), Math.max(outsideBox[2], px), Math.max(outsideBox[3], py));
        } else inside++;
      }
    }
    // The disk's clouds cover much of its box on screen; outside it (the Pacific west of 156° W,
    // Africa east of 6° E) nothing changed. The field's cloud cells are a checkerboard over about
    // half the disk, and clear ground (warm at night, dark by day) may look like the base map, so
    // the share changed is near a half, lower or higher with the hour of the scan (the day/night
    // blend): 229 228 of 461 824 px at 00:05 UTC, over a half at 22:20 UTC.
    const boxArea = (Math.min(se.x, clip.width) - Math.max(nw.x, 0)) * clip.height;
    expect(inside).toBeGreaterThan(0.35 * boxArea);
    expect(outside, `changed pixels outside the frame's box (${nw.x.toFixed(0)}, ${nw.y.toFixed(0)} .. ${se.x.toFixed(0)}, ${se.y.toFixed(0)}), within ${outsideBox.join(', ')}`).toBe(0);

    // The picker at 75° W, 15° N gives the infrared brightness temperature there, in the user's unit.
    const at = await screenOf(page, -75, 15);
    await page.mouse.click(at.x, at.y);
    const kelvin = ir(-75, 15);
    await expect(page.getByTestId('picker-value')).toContainText('°F'); // en-US
    await expect.poll(async () => Math.abs(Number(await page.getByTestId('picker').getAttribute('data-value')) - kelvin), { timeout: 15_000 }).toBeLessThan(2);
    await page.screenshot({ path: testInfo.outputPath('satellite-picker.png') });
  });

  test('the radar overlay of a server that follows no radar says which setting turns it on, and draws no weather', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    if (!server) server = await startAppServer({ port: PORT, dataDir: DATA_DIR, log: testInfo.outputPath('server.log'), env: { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'none' } });
    const layerShown = () => page.evaluate(async () => {
      const render = (window as unknown as { isobar: { render(): { sampleAt(p: { lon: number; lat: number }): Promise<{ layer: string }> } } }).isobar.render();
      return render.sampleAt({ lon: 10, lat: 51 }).then((s) => s.layer, (e: Error) => e.message);
    });
    // Coloured pixels of the map's middle (the base map is grey, its lines and labels white).
    const clip = { x: 200, y: 100, width: 700, height: 450 };
    const coloured = async () => {
      const p = await screenshotPixels(page, clip);
      let n = 0;
      for (let i = 0; i < p.data.length; i += 4) if (Math.max(p.data[i], p.data[i + 1], p.data[i + 2]) - Math.min(p.data[i], p.data[i + 1], p.data[i + 2]) > 40) n++;
      return n / (clip.width * clip.height);
    };
    await page.goto(`${BASE}/?wind,51.000,10.000,5`);
    await expect.poll(layerShown, { timeout: 30_000 }).toBe('wind');
    await settled(page);
    await expect.poll(coloured, { timeout: 15_000 }).toBeGreaterThan(0.5);
    await setOverlay(page, 'radar');
    const timeline = page.getByTestId('radar-timeline');
    await expect(timeline).toHaveAttribute('data-missing', 'unavailable', { timeout: 30_000 });
    await expect(timeline).toContainText('ISOBAR_OBS=mrms,radolan,radvor');
    // The wind is not left on the map under the radar's name and legend: the base map alone.
    await expect.poll(layerShown, { timeout: 15_000 }).toBe('No layer is shown yet');
    await expect.poll(coloured, { timeout: 15_000 }).toBeLessThan(0.01);
    await page.screenshot({ path: testInfo.outputPath('radar-unconfigured.png') });
  });
});
