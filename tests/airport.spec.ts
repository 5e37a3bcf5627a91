/**
 * The airport window and the metars layer (SPEC §2 /airport/{ICAO}, §3 pois metars) on an app
 * server of the spec's own: the AWC source polls the fixture server (cache files built from the
 * real fixture reports, server/obs/metar/testing.ts) and the OurAirports source reads verbatim
 * runway rows. KJFK's METAR (2023-10-17 05:51Z) with its runways and their crosswind, the station
 * on the map coloured and opening its window; then KJFK's TAF (2024-05-09, polled at its own time),
 * an airport the feed has no report from, and an unknown code; last a server whose METAR feed has
 * never delivered says so instead of "No current METAR", and so do the map's toggles.
 */

import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { startAppServer, stopAppServer } from './appServer.ts';
import { obsTestContext, screenOf } from './testing.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import type { ObsContext } from '../server/obs/core/source.ts';
import { AwcMetarSource } from '../server/obs/metar/metarSource.ts';
import { OurAirportsRunwaysSource } from '../server/obs/metar/runwaysSource.ts';
import { serveAirportFixtures } from '../server/obs/metar/testing.ts';

const DATA = fileURLToPath(new URL('../../shared/data/text/metar-taf/', import.meta.url));
const present = existsSync(resolve(DATA, 'metar_KJFK.json'));
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error('METAR fixtures missing (ISOBAR_REQUIRE_FIXTURES=1)');

const PORT = Number(process.env.ISOBAR_E2E_PORT ?? 8093) + 9;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e', 'airport');
const METAR_NOW = Date.UTC(2023, 9, 17, 6);
const TAF_NOW = Date.UTC(2024, 4, 9, 4);
const KJFK = { lon: -73.779317, lat: 40.639447 };

const context = (now: number): ObsContext => obsTestContext(DATA_DIR, now);

test.use({ locale: 'en-US' });

test.describe('airport window and metars layer', () => {
  test.skip(!present, 'METAR fixtures missing');
  let fixture: FixtureServer;
  let server: ChildProcess | null = null;

  test.beforeAll(async () => {
    await rm(DATA_DIR, { recursive: true, force: true });
    await mkdir(DATA_DIR, { recursive: true });
    fixture = await FixtureServer.start();
    await serveAirportFixtures(fixture);
    await new OurAirportsRunwaysSource(fixture.url).poll(context(METAR_NOW));
    await new AwcMetarSource(fixture.url).poll(context(METAR_NOW));
  });
  test.afterAll(async () => {
    if (server) await stopAppServer(server);
    await fixture?.close();
  });

  test('KJFK: METAR decoded, runways with crosswind, the station on the map opens the window', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await mkdir(testInfo.outputDir, { recursive: true });
    server = await startAppServer({ port: PORT, dataDir: DATA_DIR, log: testInfo.outputPath('server.log'), env: { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'none' } });

    // A bare four-letter code opens the airport window.
    await page.goto(`${BASE}/KJFK`);
    const panel = page.getByTestId('airport-panel');
    await expect(panel.getByTestId('airport-icao')).toHaveText('KJFK', { timeout: 30_000 });
    await expect(panel.getByTestId('airport-iata')).toHaveText('JFK');
    await expect(page.locator('.airport-panel h2')).toHaveText('John F Kennedy International Airport');
    await expect(panel.getByTestId('airport-metar-raw')).toHaveText(/^KJFK 170551Z 36007KT 10SM FEW085 SCT250 11\/07 A2979/);
    await expect(panel.getByTestId('airport-category')).toHaveText('VFR');
    await expect(panel.getByTestId('airport-wind')).toContainText('360°');
    // en-US: the user's units are imperial (11 °C and 7 °C).
    await expect(panel.getByTestId('airport-temperature')).toHaveText('52 °F / 45 °F');
    await expect(panel.getByTestId('airport-qnh')).not.toHaveText('—');
    // Four runways; wind 360° 7 kt on 04L (031° true): 7 sin(-31°) = 3.6 kt = 1.85 m/s from the left.
    await expect(panel.getByTestId('airport-runway')).toHaveCount(4);
    const end04L = panel.getByTestId('airport-runway-end').first();
    await expect(end04L).toContainText('04L');
    await expect(end04L).toHaveAttribute('data-crosswind-ms', '-1.85');
    await page.screenshot({ path: testInfo.outputPath('airport-kjfk.png') });

    // The metars layer: four stations, KJFK's disc opens its window.
    await page.getByTestId('panel-close').click();
    await page.goto(`${BASE}/?${KJFK.lat.toFixed(3)},${KJFK.lon.toFixed(3)},9`);
    await page.getByTestId('metars-toggle').click();
    await expect(page.getByTestId('metars-credit')).toHaveAttribute('data-stations', '4', { timeout: 30_000 });
    await expect.poll(() => page.url()).toContain('p:metars');
    await page.screenshot({ path: testInfo.outputPath('metars-layer.png') });
    const at = await screenOf(page, KJFK.lon, KJFK.lat);
    await page.mouse.click(at.x, at.y);
    await expect(page.getByTestId('airport-icao')).toHaveText('KJFK', { timeout: 15_000 });
    await expect.poll(() => page.url()).toContain('/airport/KJFK');
  });

  test('KJFK\'s TAF decoded by period; an unknown code says not found', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    await new AwcMetarSource(fixture.url).poll(context(TAF_NOW));
    if (!server) server = await startAppServer({ port: PORT, dataDir: DATA_DIR, log: testInfo.outputPath('server.log'), env: { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'none' } });
    await page.goto(`${BASE}/airport/kjfk`);
    const panel = page.getByTestId('airport-panel');
    await expect(panel.getByTestId('airport-taf-raw')).toHaveText(/^KJFK 090315Z 0903\/1006/, { timeout: 30_000 });
    // The base forecast, five FM groups and a PROB30: seven periods, the last MVFR (BKN010).
    await expect(panel.getByTestId('airport-taf-period')).toHaveCount(7);
    await expect(panel.getByTestId('airport-taf-period').last().getByTestId('airport-category')).toHaveText('MVFR');
    await page.screenshot({ path: testInfo.outputPath('airport-kjfk-taf.png'), fullPage: true });

    // KLGA sent nothing the feed kept: no current METAR, no current TAF.
    await page.goto(`${BASE}/airport/KLGA`);
    await expect(panel.getByTestId('airport-no-metar')).toHaveText('No current METAR', { timeout: 30_000 });
    await expect(panel.getByTestId('airport-taf')).toHaveText('No current TAF');

    await page.goto(`${BASE}/airport/ZZZZ`);
    await expect(page.getByTestId('airport-not-found')).toContainText('ZZZZ', { timeout: 30_000 });
    await page.screenshot({ path: testInfo.outputPath('airport-not-found.png') });
  });

  test('a METAR feed that has not delivered is named, not taken for a silent station', async ({ page, request }, testInfo) => {
    test.setTimeout(120_000);
    if (server) await stopAppServer(server);
    // A fresh server that follows the AWC feed at an address that answers 404: its first poll fails.
    const dataDir = resolve(DATA_DIR, 'unreached');
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
    server = await startAppServer({
      port: PORT, dataDir, log: testInfo.outputPath('server.log'),
      env: { ISOBAR_SOURCES: 'none', ISOBAR_OBS: 'awc', ISOBAR_AWC_URL: `${fixture.url}/nowhere` },
    });
    await expect.poll(async () => {
      const status = await (await request.get(`${BASE}/obs/v1.0/status.json`)).json() as { sources: { id: string; ok: boolean; lastSuccess: string | null }[] };
      const awc = status.sources.find((s) => s.id === 'awc');
      return awc && !awc.ok && awc.lastSuccess === null;
    }, { timeout: 30_000 }).toBe(true);

    await page.goto(`${BASE}/airport/KJFK`);
    const panel = page.getByTestId('airport-panel');
    await expect(panel.getByTestId('airport-no-metar')).toHaveText(
      'The server could not fetch METAR reports yet (source: Aviation Weather Center METAR and TAF): it tries again every 10 minutes', { timeout: 30_000 });
    // The TAF is missing for the same reason: the window says it once.
    await expect(panel.getByTestId('airport-taf')).toHaveText('');
    await expect(panel.getByTestId('airport-icao')).toHaveText('KJFK');
    await page.screenshot({ path: testInfo.outputPath('airport-feed-unreached.png') });

    // The map's toggles say the same in a line: the METAR feed unreached, no lightning source at all.
    await page.getByTestId('panel-close').click();
    await page.getByTestId('metars-toggle').click();
    await expect(page.getByTestId('metars-credit')).toHaveText('Aviation Weather Center METAR and TAF could not be reached yet (tried every 10 min)', { timeout: 30_000 });
    await page.getByTestId('lightning-toggle').click();
    await expect(page.getByTestId('lightning-credit')).toHaveText('Not available on this server', { timeout: 30_000 });
    await page.screenshot({ path: testInfo.outputPath('toggles-feed-unreached.png') });
  });
});
