/**
 * Weather warnings (issue 15 §5; SPEC §3 overlay capAlerts, §2 /cap-alert/{lat}/{lon}): the real
 * ECCC frost advisory for Nova Scotia (../shared/data/obs/warnings, CAP 1.2, en/fr) fetched by the
 * ECCC source from the fixture server in dd.weather.gc.ca's layout and published, then served by an
 * app server whose clock is held at 2022-10-10 19:00Z (the advisory expired years ago; at its own
 * time it is current): the areas drawn in the severity's colour, the legend, the picker naming the
 * warning, and the window with every alert at the place, in English and in French.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import { CAP_SEVERITY_COLOURS } from '../common/capAlerts.ts';
import { SourceHttp } from '../server/live/http.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { fixturesPresent } from '../server/live/testing.ts';
import { startObsPoller } from '../server/obs/core/poller.ts';
import { ecccAlertsSource } from '../server/obs/capAlerts/sources.ts';
import { ECCC_FIXTURE_NOW, readWarningFixture, WARNING_FIXTURE } from '../server/obs/capAlerts/testing.ts';
import { startFixedClockServer } from './fixedClock.ts';
import { mapClip, openMap, pickOverlay, screenshotPixels, stats, type Pixels } from './testing.ts';

const present = fixturesPresent;
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error('warning fixtures missing under ../shared/data/obs (ISOBAR_REQUIRE_FIXTURES=1)');

/** Kentville, Nova Scotia, in Kings County (one of the advisory's 21 areas). */
const KENTVILLE = { lat: 45.077, lon: -64.496 };

/** Pixels within 40 of the Moderate severity's yellow (the advisory's outline). */
function yellowPixels(p: Pixels): number {
  const [r, g, b] = CAP_SEVERITY_COLOURS.Moderate;
  let n = 0;
  for (let i = 0; i < p.data.length; i += 4) {
    if (Math.abs(p.data[i] - r) <= 40 && Math.abs(p.data[i + 1] - g) <= 40 && Math.abs(p.data[i + 2] - b) <= 40) n++;
  }
  return n;
}

test.describe('weather warnings', () => {
  test.skip(!present, 'warning fixtures not found under ../shared/data/obs');
  let upstream: FixtureServer;
  let dataDir: string;
  let server: { origin: string; stop: () => void };

  test.beforeAll(async () => {
    upstream = await FixtureServer.start();
    upstream.listFolders = true;
    const file = (fixture: string, prefix: RegExp) => fixture.split('/').pop()!.replace(prefix, '');
    upstream.files.set(`/alerts/cap/20221010/CWHX/18/${file(WARNING_FIXTURE.ecccFrost, /^eccc_cap12_CWHX_202210101814_/)}`, new TextEncoder().encode(await readWarningFixture('ecccFrost')));
    upstream.files.set(`/alerts/cap/20221010/CWVR/17/${file(WARNING_FIXTURE.ecccAirQuality, /^eccc_cap12_CWVR_202210101743_/)}`, new TextEncoder().encode(await readWarningFixture('ecccAirQuality')));
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-e2e-warnings-'));
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const poller = startObsPoller({
      sources: [ecccAlertsSource({ ISOBAR_ECCC_DD_URL: upstream.url })], dataDir, logger: silent,
      http: new SourceHttp({ retry: { attempts: 1 } }), pollOnStart: false, now: () => ECCC_FIXTURE_NOW,
    });
    try {
      expect(await poller.pollNow('ecccAlerts')).toEqual({ ok: true });
    } finally {
      await poller.stop();
    }
    server = await startFixedClockServer(new Date(ECCC_FIXTURE_NOW).toISOString(), { dataDir });
  });
  test.afterAll(async () => {
    server?.stop();
    await upstream?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('draws the advisory\'s areas in its colour, with the legend, and the picker names it', async ({ page }) => {
    await openMap(page, `${server.origin}/?${KENTVILLE.lat.toFixed(3)},${KENTVILLE.lon.toFixed(3)},7`);
    const clip = mapClip(page);
    const before = yellowPixels(await screenshotPixels(page, clip));
    await page.getByTestId('cap-alerts-toggle').click();
    // 21 areas of the frost advisory and 2 of the air quality statement still in effect.
    await expect(page.getByTestId('cap-alerts-control')).toHaveAttribute('data-areas', '23');
    await expect(page.getByTestId('cap-alerts-legend')).toContainText('Moderate');
    await expect.poll(async () => yellowPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeGreaterThan(before + 500);

    // The map is centred on Kentville; beside its label (which opens the forecast), in the advisory's
    // area, the picker names the warning and opens the window.
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30);
    const alert = page.getByTestId('picker-cap-alert');
    await expect(alert).toContainText(/frost/i);
    await alert.click();
    await expect(page).toHaveURL(/\/cap-alert\/44\.\d+\/-63\.\d+/);
    await expect(page.getByTestId('cap-alert-headline').first()).toHaveText('frost advisory in effect');
    await expect(page.getByTestId('cap-alert-panel')).toContainText(/County/);
    await expect(page.getByTestId('cap-alert-panel')).toContainText('Environment Canada');
  });

  test('the warnings overlay: chosen in the layer menu, the areas alone over the base map, their legend, the picker', async ({ page }) => {
    await openMap(page, `${server.origin}/?${KENTVILLE.lat.toFixed(3)},${KENTVILLE.lon.toFixed(3)},7`);
    const clip = mapClip(page);
    const before = yellowPixels(await screenshotPixels(page, clip));
    await pickOverlay(page, 'capAlerts');
    await expect(page).toHaveURL(/\?capAlerts,/);
    // The legend is the warnings' (the toggle steps aside), with the areas drawn.
    await expect(page.getByTestId('legend')).toHaveAttribute('data-areas', '23');
    await expect(page.getByTestId('cap-alerts-overlay-legend')).toContainText('Extreme');
    await expect(page.getByTestId('cap-alerts-toggle')).toHaveCount(0);
    await expect.poll(async () => yellowPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeGreaterThan(before + 500);
    await page.screenshot({ path: test.info().outputPath('warnings-overlay.png') });
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30);
    await expect(page.getByTestId('picker-cap-alert')).toContainText(/frost/i);
    // Back to wind: the toggle is there again and off, so the areas go.
    await pickOverlay(page, 'wind');
    await expect(page.getByTestId('cap-alerts-toggle')).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(async () => yellowPixels(await screenshotPixels(page, clip)), { timeout: 10_000 }).toBeLessThan(before + 500);
  });

  test('the window shows the alert in French where the alert carries it', async ({ browser }) => {
    const context = await newContext(browser, { locale: 'fr-CA', timezoneId: 'America/Halifax' });
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/cap-alert/${KENTVILLE.lat}/${KENTVILLE.lon}`);
      await expect(page.getByTestId('cap-alert-headline').first()).toHaveText('avis de gel en vigueur');
      await expect(page.getByTestId('cap-alert-panel')).toContainText('comté de Kings');

      // Start-up (SPEC §7: the warnings are asked for the start position): started where the map was
      // left, at Kentville, the weather card names the advisory in French and opens its window.
      await page.goto(`${server.origin}/?${KENTVILLE.lat.toFixed(3)},${KENTVILLE.lon.toFixed(3)},7`);
      await expect.poll(() => page.evaluate(() => (window as unknown as { isobar?: { app: { settings: { get(k: string): unknown } } } }).isobar?.app.settings.get('startUpLastPosition') ?? null)).not.toBeNull();
      await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { set(k: string, v: unknown): void } } } }).isobar.app.settings.set('startUp', 'last'));
      await page.goto(`${server.origin}/`);
      const warning = page.getByTestId('startup-warning');
      await expect(warning).toContainText(/gel/i);
      await page.screenshot({ path: test.info().outputPath('startup-warning.png') });
      await warning.click();
      await expect(page).toHaveURL(/\/cap-alert\/45\.077\/-64\.496/);
      await expect(page.getByTestId('cap-alert-headline').first()).toHaveText('avis de gel en vigueur');
    } finally {
      await context.close();
    }
  });

  test('a server that has published no warnings says so, with the setting that chooses their sources', async ({ page }) => {
    // The suite's own server follows no observation source (ISOBAR_SOURCES=none). No particles
    // under the warnings alone: openMap's wait does not apply.
    await page.goto('/?capAlerts,45.077,-64.496,6');
    await expect(page.getByTestId('cap-alerts-overlay-legend')).toContainText('Moderate');
    const note = page.getByTestId('cap-alerts-unpublished');
    await expect(note).toContainText('ISOBAR_OBS=nwsAlerts,ecccAlerts,meteoalarm');
    await expect(note).toContainText('no warnings yet');
    await expect(page.getByTestId('legend')).toHaveAttribute('data-areas', '0');
    await expect.poll(async () => (await stats(page)).frames, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: test.info().outputPath('warnings-unpublished.png') });
  });
});
