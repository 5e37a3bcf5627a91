/**
 * Weather stations end to end (issue 16 §4, §8): the NWS station source polls the fixture server
 * (the real KFLL observation of ../shared/data/obs/observations in api.weather.gov's URL layout)
 * into a data directory, an app server with its clock held at the observation's time serves it,
 * and the browser (its clock held too) opens the station window, the nearest stations of the
 * detail window and the search.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { fixturesPresent } from '../server/live/testing.ts';
import { startFixedClockServer } from './fixedClock.ts';
import { test } from './fixtures.ts';
import { publishStationFixture } from './testing.ts';

const present = fixturesPresent;
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error('observation fixtures missing under ../shared/data/obs (ISOBAR_REQUIRE_FIXTURES=1)');

/**
 * Five minutes after the fixture's observation (2022-03-02 23:53Z), before 00Z: the demo product's
 * run of the held clock started before the observation, so the comparison has an hour to compare.
 */
const NOW = Date.UTC(2022, 2, 2, 23, 58);
/** Miami, some 35 km south of the station at Fort Lauderdale-Hollywood airport. */
const MIAMI = { lat: 25.762, lon: -80.192 };
const STATION_NAME = 'Fort Lauderdale Hollywood International Airport';

/** en-US: no cookie consent, US units (°F). */
test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } });

test.describe('weather stations', () => {
  test.skip(!present, 'observation fixtures not found under ../shared/data/obs');
  let dataDir: string;
  let server: { origin: string; stop: () => void };

  test.beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-e2e-stations-'));
    await publishStationFixture(dataDir, NOW);
    server = await startFixedClockServer(new Date(NOW).toISOString(), { dataDir });
  });
  test.afterAll(async () => {
    server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test.setTimeout(120_000);

  test('the station window shows the observation, the wind and the comparison with the models; an unknown station is not found', async ({ page }) => {
    await page.clock.setFixedTime(NOW);
    await page.goto(`${server.origin}/station/KFLL`);
    const station = page.getByTestId('station');
    await expect(page.getByTestId('station-title')).toHaveText(STATION_NAME);
    const row = page.getByTestId('station-row');
    await expect(row).toHaveCount(1);
    // 22.8 °C and 18.3 °C in °F: 73 and 65; wind from 020°; 1018.7 hPa is 30.08 inHg.
    await expect(row).toContainText('73');
    await expect(row).toContainText('65');
    await expect(row).toContainText('20°');
    await expect(row).toContainText('Mostly Cloudy');
    await expect(row).toHaveAttribute('title', /^KFLL 022353Z 02004KT/);
    await expect(station).toContainText('NOAA National Weather Service');
    await page.screenshot({ path: '/tmp/station-basic.png' });

    await station.getByRole('tab', { name: 'Wind' }).click();
    await expect(page).toHaveURL(/\/station\/KFLL\/wind/);
    await expect(page.getByTestId('station-wind-chart')).toBeVisible();
    await page.screenshot({ path: '/tmp/station-wind.png' });

    await station.getByRole('tab', { name: 'Compare with models' }).click();
    await expect(page).toHaveURL(/\/station\/KFLL\/compare/);
    const demo = page.getByTestId('station-compare-model').filter({ hasText: 'Demo' }).first();
    await expect(demo).toBeVisible();
    // The observed hour against the demo run's forecast for it (its 21Z and 00Z steps).
    await expect(demo.locator('td').nth(2)).toHaveText('1');
    await page.screenshot({ path: '/tmp/station-compare.png' });
    // Hiding a model writes the setting stationCompareHiddenProducts.
    await demo.getByRole('checkbox').uncheck();
    await expect(demo).toContainText('Hidden');

    await page.goto(`${server.origin}/station/ZZZZ`);
    await expect(page.getByTestId('station-title')).toHaveText('ZZZZ');
    await expect(page.getByTestId('station-not-found')).toHaveText('Station ZZZZ not found');
  });

  test('the detail window lists the nearest station, which opens it; the search finds it, and Praha', async ({ page }) => {
    await page.clock.setFixedTime(NOW);
    await page.goto(`${server.origin}/${MIAMI.lat.toFixed(3)}/${MIAMI.lon.toFixed(3)}`);
    const nearest = page.getByTestId('nearest-station');
    // The detail window loads with the map: it may take a while on a software renderer.
    await expect(nearest).toHaveCount(1, { timeout: 30_000 });
    await expect(nearest).toContainText(STATION_NAME);
    // 34.5 km is 21.4 mi; the reading of 5 minutes ago.
    await expect(nearest).toContainText('KFLL · 21.4 mi');
    await expect(nearest).toContainText('5 min ago');
    await page.screenshot({ path: '/tmp/station-nearest.png' });
    await nearest.click();
    await expect(page).toHaveURL(/\/station\/KFLL(\?|$)/);
    await expect(page.getByTestId('station-title')).toHaveText(STATION_NAME);

    await page.getByTestId('station-close').click();
    await page.keyboard.press('f');
    const input = page.getByTestId('search-input');
    await input.fill('KFLL');
    const stationResult = page.getByTestId('search-results').locator('[data-type="station"]');
    await expect(stationResult).toContainText(STATION_NAME);
    await page.screenshot({ path: '/tmp/station-search.png' });
    await input.fill('Praha');
    await expect(page.getByTestId('search-results').getByRole('option').first()).toContainText('Prague');
    await input.fill('KFLL');
    await stationResult.click();
    await expect(page).toHaveURL(/\/station\/KFLL(\?|$)/);
  });
});
