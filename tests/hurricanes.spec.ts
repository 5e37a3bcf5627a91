/**
 * The hurricane tracker (issue 15 §4; SPEC §2 /hurricanes/{id?}): JTWC's best track of Super
 * Typhoon Vongfong (2014, ../shared/data/obs/tropical) published through the storm publication
 * (server/obs/tropical) into the server's data directory, then the list, the storm's page with its
 * track table, and the track drawn on the map in the Saffir-Simpson colours.
 */

import { resolve } from 'node:path';
import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { CATEGORY_COLORS } from '../common/tropical/category.ts';
import { ObsStore } from '../server/obs/core/store.ts';
import { publishStorms } from '../server/obs/tropical/publish.ts';
import { deckStorm } from '../server/obs/tropical/sources.ts';
import { FIXTURES_DIR } from '../server/live/testing.ts';
import { TROPICAL_FIXTURE } from '../server/obs/tropical/testing.ts';
import { mapClip, pickOverlay, screenshotPixels, settled, type Pixels } from './testing.ts';

const DATA_DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e');
const store = new ObsStore(DATA_DIR);

/** Pixels within 20 of one of the classes' track colours. */
function trackPixels(p: Pixels): number {
  const colors = Object.values(CATEGORY_COLORS);
  let n = 0;
  for (let i = 0; i < p.data.length; i += 4) {
    if (colors.some(([r, g, b]) => Math.abs(p.data[i] - r) <= 20 && Math.abs(p.data[i + 1] - g) <= 20 && Math.abs(p.data[i + 2] - b) <= 20)) n++;
  }
  return n;
}

test.describe('hurricane tracker', () => {
  test.beforeAll(async () => {
    const storm = await deckStorm(resolve(FIXTURES_DIR, TROPICAL_FIXTURE.vongfong), Date.now());
    await publishStorms(store, 'e2e', [storm], Date.now());
  });
  test.afterAll(async () => {
    await publishStorms(store, 'e2e', [], Date.now());
    await store.remove('storms', 'lists/e2e.json');
  });

  test('lists Vongfong, opens its page with the track, and draws the track on the map', async ({ page }) => {
    // SPEC §7 /tc/v2: the list has the storm; it ended in 2014, so none is active.
    expect((await (await page.request.get('/tc/v2/storms')).json()).storms.map((s: { id: string }) => s.id)).toContain('wp192014');
    expect((await (await page.request.get('/tc/v2/storms/active/count')).json()).count).toBe(0);
    await page.goto('/hurricanes');
    const row = page.locator('[data-storm="wp192014"]');
    await expect(row).toContainText('VONGFONG');
    await expect(row.getByTestId('storm-category')).toHaveText('Super typhoon');
    await expect(row).toContainText(/Max wind \d+/);
    await expect(row).toContainText(/Ended/);
    await page.screenshot({ path: test.info().outputPath('storms-list.png') });

    await row.getByRole('button').click();
    await expect(page).toHaveURL(/\/hurricanes\/wp192014/);
    const track = page.getByTestId('storm-track');
    // 52 fixes (JTWC's deck: 121 lines, 7 without wind radii, 45 with).
    await expect(track.locator('tbody tr')).toHaveCount(52);
    await expect(page.getByTestId('storm-detail')).toContainText(/Joint Typhoon Warning Center/);

    // The map went to the last fix; the track is drawn in the classes' colours.
    await settled(page);
    const clip = mapClip(page);
    await expect.poll(async () => trackPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeGreaterThan(200);
    const shown = trackPixels(await screenshotPixels(page, clip));
    await page.screenshot({ path: test.info().outputPath('storms-track.png') });

    // On the globe too.
    await page.getByTestId('globe-open').click();
    await expect(page.getByTestId('globe-window')).toBeVisible();
    await expect.poll(async () => trackPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeGreaterThan(200);
    await page.screenshot({ path: test.info().outputPath('storms-globe.png') });
    await page.getByTestId('globe-close').click();
    await expect(page.getByTestId('globe-open')).toBeVisible();

    // Closed, the storms leave the map: the track's colours go with them.
    await page.getByTestId('panel-close').click();
    await expect.poll(async () => trackPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeLessThan(shown / 2);
    await page.screenshot({ path: test.info().outputPath('storms-closed.png') });
  });

  test('the hurricanes overlay draws the active storms over the wind, with the classes\' legend and the tracker a click away', async ({ page }) => {
    // Marked active, as the NHC source marks a storm CurrentStorms.json lists (server/obs/tropical/sources.ts).
    const storm = await deckStorm(resolve(FIXTURES_DIR, TROPICAL_FIXTURE.vongfong), Date.now());
    await publishStorms(store, 'e2e', [{ ...storm, storm: { ...storm.storm, active: true } }], Date.now());
    try {
      const last = storm.storm.last;
      await page.goto(`/?${last.lat.toFixed(3)},${last.lon.toFixed(3)},4`);
      await settled(page);
      const clip = mapClip(page);
      // The wind alone may have a few pixels of the classes' colours.
      const before = trackPixels(await screenshotPixels(page, clip));
      await pickOverlay(page, 'hurricanes');
      await expect(page).toHaveURL(/\?hurricanes,/);
      await expect(page.getByTestId('storms-legend')).toHaveAttribute('data-storms', '1');
      // Over the product's wind: its legend is there too.
      await expect(page.getByTestId('legend')).toHaveAttribute('data-unit', /.+/);
      await expect.poll(async () => trackPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeGreaterThan(before + 200);
      await page.screenshot({ path: test.info().outputPath('storms-overlay.png') });
      await page.getByTestId('storms-open-tracker').click();
      await expect(page).toHaveURL(/\/hurricanes/);
      await expect(page.locator('[data-storm="wp192014"]')).toContainText('VONGFONG');
    } finally {
      await publishStorms(store, 'e2e', [storm], Date.now());
    }
  });
});
