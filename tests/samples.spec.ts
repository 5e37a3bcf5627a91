/**
 * The samples of ../shared/data/samples as products (issue 3 item 5): the server ingests them at
 * start-up (server/ingest/samples.ts) and the product picker offers them with their own dates.
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { diffRatio, mapClip, openMap, pickOverlay, screenshotPixels, stats, settled, type Pixels } from './testing.ts';

const SAMPLES = fileURLToPath(new URL('../../shared/data/samples/', import.meta.url));
const present = existsSync(SAMPLES);
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error(`samples missing under ${SAMPLES} (ISOBAR_REQUIRE_FIXTURES=1)`);

const MICHAEL = 'gfs1p0-michael2018';
const GFS_2P5 = 'gfs2p5-20110110';

/** The first start ingests the samples in the background (about 10 s on a small machine). */
async function waitForSamples(request: APIRequestContext, idents: string[]): Promise<void> {
  await expect.poll(async () => {
    const body = await (await request.get('/metadata/v1.0/products.json')).json() as { products: { ident: string }[] };
    return idents.every((i) => body.products.some((p) => p.ident === i));
  }, { timeout: 90_000, intervals: [1000] }).toBe(true);
}

type Sampler = { sampleAt(p: { lon: number; lat: number }): Promise<{ layer: string; value: number | null }> };

/** The layer the render worker draws. */
const workerLayer = (page: Page): Promise<string> => page.evaluate(async () => {
  const render = (window as unknown as { isobar: { render(): Sampler } }).isobar.render();
  return (await render.sampleAt({ lon: 0, lat: 0 })).layer;
});

/** Waits until the worker shows `layer` with its tiles in. */
async function shown(page: Page, layer: string): Promise<void> {
  await expect.poll(() => workerLayer(page), { timeout: 20_000 }).toBe(layer);
  await settled(page);
}

/**
 * After a pick: waits until the map differs from `previous` in more than `share` of its pixels and
 * its tiles are in, and returns that picture. The worker takes the new layer some frames after the
 * click, and until it asks for its tiles none is loading: a screenshot taken once no tile loads
 * could show the layer before (seen under load: 1.7 % of the pixels changed instead of 13 %).
 */
async function changedFrom(page: Page, previous: Pixels, share: number, what: string): Promise<Pixels> {
  const clip = mapClip(page);
  const framesBefore = (await stats(page)).frames;
  let changed = 0;
  try {
    await expect.poll(async () => (changed = diffRatio(previous, await screenshotPixels(page, clip))), { timeout: 20_000 }).toBeGreaterThan(share);
  } catch (error) {
    throw new Error(`${what} looks different from the layer before in ${(changed * 100).toFixed(2)} % of the map only; ${await mapState(page, framesBefore)}`, { cause: error });
  }
  await settled(page);
  return screenshotPixels(page, clip);
}

/** What the page and its render worker show, for a failure's message: where a pick stopped. */
async function mapState(page: Page, framesBefore: number): Promise<string> {
  const s = await stats(page);
  const active = await page.locator('[data-testid="overlay-menu"] [aria-pressed="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-overlay')));
  const layer = await Promise.race([
    workerLayer(page).catch((e: Error) => `none (${e.message})`),
    new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 5 s'), 5000)),
  ]);
  return `URL ${page.url()}; menu shows ${active.join(', ') || 'nothing'} as chosen; the worker's layer: ${layer}; `
    + `frames ${framesBefore} -> ${s.frames}; tiles ${JSON.stringify(s.tiles)}; context lost: ${s.contextLost}`;
}

/** The layers compared, not the particles moving over them. */
async function particlesOff(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { set(k: string, v: unknown): void } } } }).isobar.app.settings.set('particlesAnim', 'off'));
}

async function closeOverlayList(page: Page): Promise<void> {
  if (await page.getByTestId('overlay-all').isVisible()) await page.getByTestId('overlay-more').click();
}

test.describe('samples as products', () => {
  test.skip(!present, `samples not found under ${SAMPLES}`);
  test.setTimeout(150_000);

  test('Hurricane Michael animates through its 80 steps with its own dates, and the readout equals the server', async ({ page, request }) => {
    await waitForSamples(request, [MICHAEL]);
    await openMap(page, '/?27.000,-87.000,5');
    const picker = page.getByTestId('product-picker');
    await expect(picker.locator(`option[value="${MICHAEL}"]`)).toHaveCount(1);
    await picker.selectOption(MICHAEL);
    await expect(page.getByTestId('demo-badge')).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${MICHAEL}`));
    // A sample starts at its first step: 2018-10-06 18Z, and ends at 10-16 21Z.
    const time = page.getByTestId('timeline-time');
    await expect(time).toHaveAttribute('data-timestamp', String(Date.UTC(2018, 9, 6, 18)));
    await expect(page.getByTestId('timeline-slider')).toHaveAttribute('max', String(Date.UTC(2018, 9, 16, 21)));
    await settled(page);

    // Step through the whole series with the arrow key: 80 distinct steps, 3 h apart but for the gap upstream.
    const seen = new Set<string>();
    seen.add((await time.getAttribute('data-timestamp'))!);
    const clip = mapClip(page);
    let previous = await screenshotPixels(page, clip);
    let changedFrames = 0;
    for (let i = 0; i < 85; i++) {
      await page.keyboard.press('ArrowRight');
      const t = (await time.getAttribute('data-timestamp'))!;
      if (seen.has(t)) break;
      seen.add(t);
      if (i % 20 === 10) {
        await settled(page);
        const now = await screenshotPixels(page, clip);
        if (diffRatio(previous, now) > 0.01) changedFrames++;
        previous = now;
      }
    }
    expect(seen.size).toBe(80);
    expect(Math.max(...[...seen].map(Number))).toBe(Date.UTC(2018, 9, 16, 21));
    expect(changedFrames).toBeGreaterThan(0);

    // Landfall day: the value under the cursor equals the server's point forecast.
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), Date.UTC(2018, 9, 10, 12));
    await settled(page);
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const readout = page.getByTestId('picker');
    await expect(readout).toHaveAttribute('data-value', /\d/);
    const lat = Number(await readout.getAttribute('data-lat'));
    const lon = Number(await readout.getAttribute('data-lon'));
    const shown = Number(await readout.getAttribute('data-value'));
    const body = await (await request.get(`/forecast/point/${MICHAEL}/v2.9/${lat}/${lon}`)).json() as { ts: number[]; data: Record<string, number[]> };
    const i = body.ts.indexOf(Date.UTC(2018, 9, 10, 12));
    expect(i).toBeGreaterThanOrEqual(0);
    const server = Math.hypot(body.data.wind_u[i], body.data.wind_v[i]);
    expect(server).toBeGreaterThan(10);
    // Both bilinear on the same 1° grid, the map through 16-bit tiles: within 0.5 m/s.
    expect(Math.abs(shown - server)).toBeLessThan(0.5);
    await page.screenshot({ path: 'test-results/sample-michael.png' });
  });

  test('the GFS 2.5° sample gives temperature, pressure, gusts, CAPE, clouds and precipitation layers', async ({ page, request }) => {
    await waitForSamples(request, [GFS_2P5]);
    const failures: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    });
    await openMap(page, '/?30.000,0.000,3');
    await page.getByTestId('product-picker').selectOption(GFS_2P5);
    await expect(page.getByTestId('timeline-time')).toHaveAttribute('data-timestamp', String(Date.UTC(2011, 0, 15, 12)));
    await particlesOff(page);
    const clip = mapClip(page);
    let previous = await screenshotPixels(page, clip);
    for (const overlay of ['temp', 'pressure', 'gust', 'cape', 'clouds', 'rain']) {
      await pickOverlay(page, overlay);
      const now = await changedFrom(page, previous, 0.05, overlay);
      expect((await stats(page)).tiles.failed, `${overlay}: failed tiles: ${failures.join(', ')}`).toBe(0);
      previous = now;
      if (overlay === 'temp' || overlay === 'cape') await page.screenshot({ path: `test-results/sample-gfs2p5-${overlay}.png` });
    }
  });

  test('the GFS 2.5° samples give the overlays straight from model fields: freezing level, ozone, precipitation type, cloud top and base, sea temperature, snow depth', async ({ page, request }) => {
    const ANALYSIS = 'gfs2p5-20170322';
    await waitForSamples(request, [GFS_2P5, ANALYSIS]);
    const failures: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    });
    await openMap(page, '/?30.000,0.000,3');
    await particlesOff(page);
    const clip = mapClip(page);
    for (const [product, overlays] of [[GFS_2P5, ['deg0', 'gtco3', 'ptype', 'cloudtop', 'cbase', 'sst']], [ANALYSIS, ['snowcover']]] as const) {
      await page.getByTestId('product-picker').selectOption(product);
      await settled(page);
      let previous = await screenshotPixels(page, clip);
      for (const overlay of overlays) {
        await pickOverlay(page, overlay);
        const now = await changedFrom(page, previous, 0.02, overlay);
        expect((await stats(page)).tiles.failed, `${overlay}: failed tiles: ${failures.join(', ')}`).toBe(0);
        previous = now;
        await page.screenshot({ path: `test-results/sample-field-${overlay}.png` });
      }
    }
    expect(failures).toEqual([]);
  });
  test('the GFS 2.5° and GEFS-Aerosols samples draw the derived overlays: wet-bulb, thunder, solar power, fog, icing at 500 hPa, turbulence at 300 hPa, soil moisture, AQI, dust', async ({ page, request }) => {
    const AEROSOLS = 'gefsaero-20240309';
    await waitForSamples(request, [GFS_2P5, AEROSOLS]);
    const failures: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    });
    await openMap(page, '/?30.000,0.000,3');
    await particlesOff(page);
    const clip = mapClip(page);
    const plan: [string, [string, string][]][] = [
      [GFS_2P5, [['wetbulbtemp', 'surface'], ['thunder', 'surface'], ['solarpower', 'surface'], ['fog', 'surface'], ['icing', '500h'], ['turbulence', '300h'], ['soilMoisture40', 'surface']]],
      [AEROSOLS, [['aqi', 'surface'], ['dustsm', 'surface']]],
    ];
    for (const [product, overlays] of plan) {
      await page.getByTestId('product-picker').selectOption(product);
      await expect(page).toHaveURL(new RegExp(product));
      await settled(page);
      let previous = await screenshotPixels(page, clip);
      for (const [overlay, level] of overlays) {
        await pickOverlay(page, overlay);
        // The long list of layers covers the map and the level selector: fold it first.
        if (await page.getByTestId('overlay-all').count()) await page.getByTestId('overlay-more').click();
        if (level !== 'surface') {
          const levels = page.getByTestId('level-selector');
          await levels.locator(`[data-level="${level}"]`).click();
          await expect(levels.locator(`[data-level="${level}"]`)).toHaveAttribute('aria-checked', 'true');
        }
        const now = await changedFrom(page, previous, 0.02, overlay);
        expect((await stats(page)).tiles.failed, `${overlay}: failed tiles: ${failures.join(', ')}`).toBe(0);
        previous = now;
        await page.screenshot({ path: `test-results/sample-derived-${overlay}.png` });
      }
    }
    expect(failures).toEqual([]);
  });

  test('precipitation type is drawn and picked as classes: every value on the GFS 2.5° +120 h map is one of the codes', async ({ page, request }) => {
    await waitForSamples(request, [GFS_2P5]);
    await openMap(page, '/?42.000,-95.000,3');
    await page.getByTestId('product-picker').selectOption(GFS_2P5);
    await expect(page.getByTestId('timeline-time')).toHaveAttribute('data-timestamp', String(Date.UTC(2011, 0, 15, 12)));
    await pickOverlay(page, 'ptype');
    await closeOverlayList(page);
    await shown(page, 'ptype');
    await page.screenshot({ path: 'test-results/sample-ptype-classes.png' });
    // A dense line-up of points over North America in January: rain, snow and whatever lies between.
    const values = await page.evaluate(async () => {
      const render = (window as unknown as { isobar: { render(): { sampleAt(p: { lon: number; lat: number }): Promise<{ value: number | null }> } } }).isobar.render();
      const points: { lon: number; lat: number }[] = [];
      for (let lat = 28; lat <= 56; lat += 0.7) {
        for (let lon = -125; lon <= -65; lon += 1.8) points.push({ lon, lat });
      }
      // Asked all at once: the worker answers them in turn, without a round trip between each.
      return (await Promise.all(points.map((p) => render.sampleAt(p)))).map((r) => r.value);
    });
    const codes = values.filter((v): v is number => v !== null);
    expect(codes.length, 'points with precipitation').toBeGreaterThan(50);
    // Codes 0-11 only (SPEC §9): a blend of rain (0) and snow (5) would answer 1.7 or 3.2.
    expect(codes.filter((v) => !Number.isInteger(v) || v < 0 || v > 11)).toEqual([]);
    expect(new Set(codes).size, `codes present: ${[...new Set(codes)].join(', ')}`).toBeGreaterThan(1);
  });

  test('the GFS-Wave sample draws wave height and asks for no wave-flow tile it does not have', async ({ page, request }) => {
    const WAVE = 'gfswave-20260819';
    await waitForSamples(request, [WAVE]);
    const failures: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    });
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/tiles/')) asked.push(r.url());
    });
    await openMap(page, '/?20.000,-150.000,3');
    const clip = mapClip(page);
    await page.getByTestId('product-picker').selectOption(WAVE);
    const before = await screenshotPixels(page, clip);
    await pickOverlay(page, 'waves');
    await closeOverlayList(page);
    await shown(page, 'waves');
    const s = await stats(page);
    await page.screenshot({ path: 'test-results/sample-waves.png' });
    expect(s.tiles.failed, `failed tiles: ${failures.join(', ')}`).toBe(0);
    expect(failures).toEqual([]);
    const wave = asked.filter((u) => u.includes(`/${WAVE}/`));
    expect(wave.filter((u) => /\/waves-surface\.tile/.test(u)).length, 'wave height tiles asked').toBeGreaterThan(0);
    expect(wave.filter((u) => /Flow-/.test(u) || /\/wind-/.test(u))).toEqual([]);
    expect(diffRatio(before, await screenshotPixels(page, clip)), 'the wave height raster is drawn').toBeGreaterThan(0.02);
  });
});
