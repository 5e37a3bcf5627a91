/**
 * Tile base maps (SPEC §2): the server is configured with a PMTiles archive of vector tiles as the
 * outdoor map (playwright.config.ts E2E_BASEMAP_URL); this test serves that archive, built from a
 * few hand-made features (workers/tiles/testing.ts: an island with a lake, a highway, a border),
 * by byte range from another origin, as a map host would.
 */

import { expect, test, type Page } from '@playwright/test';
import { E2E_BASEMAP_PORT } from '../playwright.config.ts';
import { buildVectorArchive, sampleBasemapLayers, serveBytes } from './pmtilesArchive.ts';
import { diffRatio, mapClip, openMap, screenshotPixels, workerFrames } from './testing.ts';

type IsobarWindow = { isobar: { app: { settings: { set(key: string, value: unknown): boolean } } } };
const setMap = (page: Page, value: string) => page.evaluate((v) => (window as unknown as IsobarWindow).isobar.app.settings.set('map', v), value);

test('the map selector lists the configured outdoor map and the map draws it above zoom 11', async ({ page }) => {
  const archive = await serveBytes(buildVectorArchive(sampleBasemapLayers(), 0, 6), E2E_BASEMAP_PORT);
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
    await expect.poll(() => archive.requests.filter((r) => r.startsWith('bytes=')).length).toBeGreaterThan(1);

    // The same view on the offline map (the satellite map is not configured), then back on the outdoor map.
    const clip = mapClip(page);
    await setMap(page, 'sat');
    await expect(page.getByTestId('map-selector-outdoor')).not.toHaveClass(/active/);
    // The worker redraws the static layer on its next frames.
    await workerFrames(page, 3);
    const offline = await screenshotPixels(page, clip);
    await page.screenshot({ path: '/tmp/basemap-offline.png' });
    await setMap(page, 'sznmap');
    await expect(page.getByTestId('map-selector-outdoor')).toHaveClass(/active/);
    await expect.poll(async () => diffRatio(offline, await screenshotPixels(page, clip))).toBeGreaterThan(0.5);
    await page.screenshot({ path: '/tmp/basemap-outdoor.png' });
    expect(errors.filter((e) => /base map/i.test(e))).toEqual([]);
  } finally {
    await archive.close();
  }
});
