/**
 * Tile base maps (SPEC §2): the server is configured with a PMTiles archive of vector tiles as the
 * outdoor map (playwright.config.ts E2E_BASEMAP_URL); this test serves that archive, built from a
 * few hand-made features (tests/pmtilesArchive.ts: an island with a lake, a highway, a border and
 * places), by byte range from another origin, as a map host would.
 */

import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { E2E_BASEMAP_URL } from '../playwright.config.ts';
import { REQUESTS_PATH } from './pmtilesArchive.ts';
import { diffRatio, mapClip, openMap, screenshotPixels, workerFrames } from './testing.ts';

type IsobarWindow = { isobar: { app: { settings: { set(key: string, value: unknown): boolean } } } };
const setMap = (page: Page, value: string) => page.evaluate((v) => (window as unknown as IsobarWindow).isobar.app.settings.set('map', v), value);

test('the map selector lists the configured outdoor map and the map draws it above zoom 11', async ({ page }) => {
  // The archive is served for the whole run by tests/globalSetup.ts; it lists the ranges asked of it.
  const rangesAsked = async () => ((await (await fetch(new URL(REQUESTS_PATH, E2E_BASEMAP_URL))).json()) as string[]).filter((r) => r.startsWith('bytes=')).length;
  const before = await rangesAsked();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  try {
    // Zoom 12 over the island, where the highway crosses the border (12° E, 47° N).
    await openMap(page, '/?47.000,12.000,12');
    await expect(page.getByTestId('map-selector')).toBeVisible();
    await expect(page.getByTestId('map-selector-outdoor')).toBeVisible();
    await expect(page.getByTestId('map-selector-missing-satellite')).toContainText('ISOBAR_BASEMAP_SATELLITE');
    await expect(page.getByTestId('map-selector-missing-topoMap')).toContainText('ISOBAR_BASEMAP_TOPOMAP');
    await expect.poll(rangesAsked).toBeGreaterThan(before + 1);

    // The same view on the offline map (the satellite map is not configured), then back on the outdoor map.
    const clip = mapClip(page);
    await setMap(page, 'sat');
    await expect(page.getByTestId('map-selector-outdoor')).not.toHaveClass(/active/);
    // The worker redraws the static layer on its next frames.
    await workerFrames(page, 3);
    const offline = await screenshotPixels(page, clip);
    await page.screenshot({ path: test.info().outputPath('basemap-offline.png') });
    await setMap(page, 'sznmap');
    await expect(page.getByTestId('map-selector-outdoor')).toHaveClass(/active/);
    await expect.poll(async () => diffRatio(offline, await screenshotPixels(page, clip))).toBeGreaterThan(0.5);
    // The archive's places in view, in the page's language (name:en, else the local name), from their
    // min_zoom on: the town (min_zoom 8) and the neighbourhood (12), not the farm (14).
    const names = page.getByTestId('basemap-label').filter({ visible: true });
    await expect(names).toHaveText(['Pass Town', 'Borgo']);
    // Each at its place: the town north-east of the centre, the neighbourhood south-west.
    const viewport = page.viewportSize()!;
    const town = (await names.nth(0).boundingBox())!;
    const borgo = (await names.nth(1).boundingBox())!;
    const mid = { x: viewport.width / 2, y: viewport.height / 2 };
    expect(town.x + town.width / 2).toBeGreaterThan(mid.x);
    expect(town.y + town.height / 2).toBeLessThan(mid.y);
    expect(borgo.x + borgo.width / 2).toBeLessThan(mid.x);
    expect(borgo.y + borgo.height / 2).toBeGreaterThan(mid.y);
    await page.screenshot({ path: test.info().outputPath('basemap-outdoor.png') });
    // Back on the offline map (no tile base map below zoom 11): the names go.
    await setMap(page, 'sat');
    await expect(names).toHaveCount(0);
    await setMap(page, 'sznmap');
    await expect(names).toHaveText(['Pass Town', 'Borgo']);
    expect(errors.filter((e) => /base map/i.test(e))).toEqual([]);
  } finally {
    page.removeAllListeners('console');
  }
});
