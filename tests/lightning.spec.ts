/**
 * Lightning and fires (issue 15 §3, §6), end to end. The real GLM source polls the fixture server
 * holding the three real GOES-16 GLM files in the noaa-goes16 layout, with its clock set to the
 * files' time (2018-07-02 04:34:30Z: "the last hour" is then theirs), and publishes into the data
 * directory of a server of this test's own; the FIRMS source does the same with a small CSV built
 * by hand from FIRMS's documented VIIRS columns (server/obs/fires/testing.ts: not an observation;
 * no real FIRMS answer is among the fixtures). The page then shows both: the flashes as marks over
 * the Americas (pixels), their credit line, the nearest flash in the picker; the firespots with the
 * detection's time, confidence and FRP.
 */

import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { decodeFlashes, type FlashesManifest } from '../common/obs/flashes.ts';
import { startAppServer, stopAppServer } from './appServer.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import type { ObsContext } from '../server/obs/core/source.ts';
import { FirmsSource } from '../server/obs/fires/fireSources.ts';
import { FIRMS_VIIRS_CSV_BUILT } from '../server/obs/fires/testing.ts';
import { GlmSource } from '../server/obs/lightning/glmSource.ts';
import { GLM_FIXTURES } from '../server/obs/lightning/testing.ts';
import { changedMask, obsTestContext, type Pixels, screenOf, screenshotPixels, settled, stats } from './testing.ts';

const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const present = GLM_FIXTURES.every((f) => existsSync(resolve(DATA, f.fixture)));
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error('GLM fixtures missing (ISOBAR_REQUIRE_FIXTURES=1)');

const PORT = Number(process.env.ISOBAR_E2E_PORT ?? 8093) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e', 'lightning');
const GLM_NOW = Date.UTC(2018, 6, 2, 4, 34, 30);
/** The built CSV's detections are of 2024-07-14. */
const FIRMS_NOW = Date.UTC(2024, 6, 14, 20);
const FIRMS_KEY = 'e2e0123456789abcdef';

const context = (now: number): ObsContext => obsTestContext(DATA_DIR, now);

const changed = (a: Pixels, b: Pixels): Uint8Array => changedMask(a, b, 40);

/** Waits until the map area's pixels differ from `before` (the worker drew what changed). */
async function redrawn(page: Page, before: Pixels, clip: { x: number; y: number; width: number; height: number }): Promise<void> {
  await expect.poll(async () => changed(before, await screenshotPixels(page, clip)).reduce((a, b) => a + b, 0), { timeout: 15_000 }).toBeGreaterThan(20);
  await settled(page);
}

/** en-US: a region that needs no cookie consent, so no consent window appears between two pictures. */
test.use({ locale: 'en-US' });

test.describe('lightning and firespots', () => {
  test.skip(!present, 'GLM fixtures missing');
  let fixture: FixtureServer;
  let server: ChildProcess | null = null;

  test.beforeAll(async () => {
    await rm(DATA_DIR, { recursive: true, force: true });
    await mkdir(DATA_DIR, { recursive: true });
    fixture = await FixtureServer.start();
    for (const f of GLM_FIXTURES) fixture.put(`/${f.key}`, new Uint8Array(await readFile(resolve(DATA, f.fixture))));
    fixture.put(`/api/area/csv/${FIRMS_KEY}/VIIRS_NOAA20_NRT/world/1`, FIRMS_VIIRS_CSV_BUILT);
    await new GlmSource({ buckets: [fixture.url] }).poll(context(GLM_NOW));
    await new FirmsSource(FIRMS_KEY, fixture.url, ['VIIRS_NOAA20_NRT']).poll(context(FIRMS_NOW));
  });
  test.afterAll(async () => {
    if (server) await stopAppServer(server);
    await fixture?.close();
  });

  test('the fixture flashes are published and drawn over the Americas; the picker names a flash; the firespots list their detections', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await mkdir(testInfo.outputDir, { recursive: true });
    server = await startAppServer({ port: PORT, dataDir: DATA_DIR, log: testInfo.outputPath('server.log'), env: { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'none' } });

    // Published: the manifest and the flash file of the three files' 302 + 277 + 274 flashes.
    const manifest = await (await fetch(`${BASE}/obs/v1.0/lightning/glm.json`)).json() as FlashesManifest;
    expect(manifest).toMatchObject({ source: 'glm', flashes: 853, attribution: 'NOAA GOES-R GLM (public domain)' });
    const flashes = decodeFlashes(await (await fetch(`${BASE}/obs/v1.0/lightning/${manifest.file}`)).arrayBuffer());
    expect(flashes.lon.length).toBe(853);

    // The Americas, particles still (the marks are what changes between the two pictures).
    await page.goto(`${BASE}/?5.000,-75.000,3`);
    // The UI is up (and the settings loaded) before particles are turned off.
    await expect(page.getByTestId('lightning-toggle')).toBeVisible({ timeout: 30_000 });
    await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { set(k: string, v: unknown): void } } } }).isobar.app.settings.set('particlesAnim', 'off'));
    await expect.poll(async () => {
      const s = await stats(page).catch(() => null);
      return s !== null && s.frames > 0 && s.tiles.loaded > 0 && s.tiles.loading === 0;
    }, { timeout: 30_000 }).toBe(true);
    // The city labels are page elements whose values arrive on their own time: out of the pictures.
    await page.addStyleTag({ content: '.city-label, .city-labels { visibility: hidden !important; }' });
    const clip = { x: 0, y: 60, width: 900, height: 520 };
    // The picture is still: the last particle trails have faded (two pictures in a row are the same).
    let before = await screenshotPixels(page, clip);
    await expect.poll(async () => {
      const next = await screenshotPixels(page, clip);
      const moved = changed(before, next).reduce((a, b) => a + b, 0);
      before = next;
      return moved;
    }, { timeout: 15_000, intervals: [100, 200] }).toBe(0);

    await page.getByTestId('lightning-toggle').click();
    await expect(page.getByTestId('lightning-credit')).toHaveAttribute('data-flashes', '853');
    await expect(page.getByTestId('lightning-credit')).toContainText('NOAA GOES-R GLM (public domain)');
    await expect(page.getByTestId('lightning-credit')).toContainText(/newest flash .*ago/);
    // Marks drawn (the worker draws them once the file is in): many pixels change...
    let after = before;
    await expect.poll(async () => {
      after = await screenshotPixels(page, clip);
      return changed(before, after).reduce((a, b) => a + b, 0);
    }, { timeout: 15_000 }).toBeGreaterThan(2000);
    await settled(page);
    after = await screenshotPixels(page, clip);
    await page.screenshot({ path: testInfo.outputPath('lightning-flat.png') });

    // ... and only where the flashes are: inside the box of the flashes' places on screen.
    const mask = changed(before, after);
    let count = 0;
    let outside = 0;
    let outsideBox = [1e9, 1e9, -1, -1];
    const corners = await Promise.all([
      screenOf(page, Math.min(...flashes.lon), Math.max(...flashes.lat)),
      screenOf(page, Math.max(...flashes.lon), Math.min(...flashes.lat)),
    ]);
    const margin = 12;
    for (let y = 0; y < clip.height; y++) {
      for (let x = 0; x < clip.width; x++) {
        if (!mask[y * clip.width + x]) continue;
        count++;
        const px = x + clip.x;
        const py = y + clip.y;
        if (px < corners[0].x - margin || px > corners[1].x + margin || py < corners[0].y - margin || py > corners[1].y + margin) {
          outside++;
          outsideBox = [Math.min(outsideBox[0], px), Math.min(outsideBox[1], py), Math.max(outsideBox[2], px), Math.max(outsideBox[3], py)];
        }
      }
    }
    expect(count).toBeGreaterThan(2000);
    expect(outside, `changed pixels outside the flashes' box, within ${outsideBox.join(', ')}`).toBe(0);

    // The picker at the newest flash names its age.
    const newest = flashes.lon.length - 1;
    const at = await screenOf(page, flashes.lon[newest], flashes.lat[newest]);
    await page.mouse.click(at.x, at.y);
    await expect(page.getByTestId('picker-flash')).toBeVisible();
    await expect(page.getByTestId('picker-flash')).toContainText(/^Lightning .*ago$/);
    const shownTime = Number(await page.getByTestId('picker-flash').getAttribute('data-time'));
    expect(Math.abs(shownTime - Date.parse(manifest.newest))).toBeLessThan(60_000 * 60);

    // Firespots (SPEC §3 pois): on from the toggle, listed with their time, confidence and FRP.
    const fireAt = await screenOf(page, -121.43210, 39.81234);
    const fireClip = { x: Math.round(fireAt.x) - 15, y: Math.round(fireAt.y) - 15, width: 30, height: 30 };
    const fireBefore = await screenshotPixels(page, fireClip);
    await page.getByTestId('firespots-toggle').click();
    await expect(page.getByTestId('firespots-credit')).toHaveAttribute('data-spots', '3');
    await expect(page.getByTestId('firespots-credit')).toContainText('NASA FIRMS');
    // A disc where the detection is.
    await redrawn(page, fireBefore, fireClip);
    await page.mouse.click(fireAt.x, fireAt.y);
    await expect(page.getByTestId('picker-fire')).toContainText('confidence: high');
    await expect(page.getByTestId('picker-fire')).toContainText('radiative power 12.7 MW');
    await expect(page.getByTestId('picker-fire')).toContainText('N20 VIIRS');
    expect(Number(await page.getByTestId('picker-fire').getAttribute('data-time'))).toBe(Date.UTC(2024, 6, 14, 4, 12));
    await expect.poll(() => page.url()).toContain('p:firespots');
    await page.screenshot({ path: testInfo.outputPath('firespots.png') });

    // The globe draws the same marks.
    await page.getByTestId('globe-open').click();
    await expect(page.getByTestId('globe-window')).toBeVisible();
    await settled(page);
    await page.screenshot({ path: testInfo.outputPath('lightning-globe.png') });
  });
});
