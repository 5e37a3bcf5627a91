import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { METRICS, formatValue } from '../common/catalogue/metrics.ts';
import { diffRatio, mapClip, meanColor, openMap, screenshotPixels, shareNot, showFreeStep, stats, workerFrames } from './testing.ts';

test.describe('the map', () => {
  test('draws the WebGL map: weather colours, basemap, demo label', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    await expect(page.getByTestId('demo-badge')).toHaveText('Demo data');
    const pixels = await screenshotPixels(page, mapClip(page));
    // Far from the clear colour of the canvas: the raster and the basemap draw.
    expect(shareNot(pixels, [14, 23, 38])).toBeGreaterThan(0.9);
    const s = await stats(page);
    expect(s.renderer).toMatch(/SwiftShader|ANGLE/);
    expect(s.particles).toBeGreaterThan(1000);
    await page.screenshot({ path: 'test-results/map-temp.png' });
  });

  test('particles move between two frames', async ({ page }) => {
    await openMap(page, '/?50.000,-20.000,4');
    const clip = mapClip(page);
    const a = await screenshotPixels(page, clip);
    await expect.poll(async () => diffRatio(a, await screenshotPixels(page, clip))).toBeGreaterThan(0.002);
    // The worker goes on drawing; how fast is the frame harness's figure (npm run bench), not a
    // test's on a shared machine.
    await workerFrames(page, 5);
  });

  test('particles also draw as instanced quads, the path of real GPUs', async ({ page }) => {
    await openMap(page, '/?50.000,-20.000,4');
    await page.evaluate(() => (window as unknown as { isobar: { render(): { setDebug(p: { skip: never[]; instanced: boolean }): Promise<void> } } }).isobar.render().setDebug({ skip: [], instanced: true }));
    const clip = mapClip(page);
    // Frames drawn after the switch draw the quads.
    await workerFrames(page);
    const a = await screenshotPixels(page, clip);
    await expect.poll(async () => diffRatio(a, await screenshotPixels(page, clip))).toBeGreaterThan(0.002);
  });

  test('switching overlay changes the colours and the title', async ({ page }) => {
    await openMap(page, '/?temp,20.000,0.000,3');
    const clip = mapClip(page);
    const before = meanColor(await screenshotPixels(page, clip));
    await page.locator('[data-overlay="pressure"]').click();
    await expect(page.locator('[data-overlay="pressure"]')).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    await expect.poll(async () => {
      const after = meanColor(await screenshotPixels(page, clip));
      return Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    }).toBeGreaterThan(15);
    await expect(page).toHaveTitle(/Pressure/);
    await expect.poll(() => new URL(page.url()).search).toMatch(/^\?pressure,/);
  });

  test('while a new time loads, the map keeps showing the time before, then the new one', async ({ page }) => {
    await openMap(page, '/?temp,48.853,2.349,6');
    const clip = mapClip(page);
    const before = await screenshotPixels(page, clip);
    // The new time's tiles are held back until the test lets them go.
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let held = 0;
    await page.route('**/tiles/v1.0/**', async (route) => {
      held++;
      await released;
      await route.continue();
    });
    await page.evaluate(() => {
      const { timeline } = (window as unknown as { isobar: { app: { timeline: { calendar: { value: { timestamps: number[] } | null }; setTimestamp(ms: number): void } } } }).isobar.app;
      timeline.setTimestamp(timeline.calendar.value!.timestamps[40]);
    });
    await expect.poll(() => held).toBeGreaterThan(0);
    await workerFrames(page, 5);
    // Frames drawn while the tiles are held: the weather colours and the particles stay (before,
    // the map fell back to the bare basemap, a mean colour ~60 away on this view).
    const distance = (a: [number, number, number], b: [number, number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    const waiting = await screenshotPixels(page, clip);
    console.log(`mean colour before ${meanColor(before).map(Math.round)}, while loading ${meanColor(waiting).map(Math.round)}, changed share ${diffRatio(before, waiting).toFixed(3)}`);
    expect(distance(meanColor(before), meanColor(waiting))).toBeLessThan(20);
    expect((await stats(page)).particles).toBeGreaterThan(1000);
    release();
    // The new time's tiles arrive and are drawn.
    await expect.poll(async () => (await stats(page)).tiles.loading, { timeout: 20_000 }).toBe(0);
    await workerFrames(page, 2);
    expect((await stats(page)).tiles.failed).toBe(0);
  });

  test('panning updates the URL', async ({ page }) => {
    await openMap(page, '/?temp,40.000,0.000,5');
    const box = (await page.getByTestId('map').boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(x - 30 * i, y + 10 * i);
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).search, { timeout: 5000 }).not.toBe('?temp,40.000,0.000,5');
    const [, lat, lon, zoom] = new URL(page.url()).search.slice(1).split(',');
    expect(Number(lon)).toBeGreaterThan(0);
    expect(Number(lat)).toBeGreaterThan(40);
    expect(zoom).toBe('5');
  });

  test('panning moves the picture with the trails: no dark or empty frames', async ({ page }) => {
    await openMap(page, '/?temp,10.000,170.000,4');
    // The trails build up over the first frames (each keeps ~92 % of the last): compared with a
    // picture whose trails have not, the panned one differs by their build-up, not by the pan.
    await workerFrames(page, 20);
    const clip = mapClip(page);
    const before = meanColor(await screenshotPixels(page, clip));
    await page.mouse.move(900, 360);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(900 - 25 * i, 360 + 5 * i);
      // The worker draws the moved view before the next move.
      await workerFrames(page);
    }
    const during = meanColor(await screenshotPixels(page, clip));
    await page.mouse.up();
    const distance = Math.hypot(during[0] - before[0], during[1] - before[1], during[2] - before[2]);
    expect(distance).toBeLessThan(25);
  });

  test('the click readout equals the server value at that point', async ({ page, request }) => {
    await openMap(page, '/?temp,48.000,2.000,5');
    // A time the free point forecast (3-hourly) holds.
    const timestamp = await showFreeStep(page);
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.45);
    const picker = page.getByTestId('picker');
    await expect(picker).toHaveAttribute('data-value', /\d/);
    const lat = Number(await picker.getAttribute('data-lat'));
    const lon = Number(await picker.getAttribute('data-lon'));
    const shown = Number(await picker.getAttribute('data-value'));
    const text = await page.getByTestId('picker-value').innerText();
    const response = await request.get(`/forecast/point/demo/v2.9/${lat}/${lon}`);
    expect(response.ok()).toBe(true);
    const body = await response.json() as { ts: number[]; data: Record<string, number[]> };
    const i = body.ts.indexOf(timestamp);
    expect(i).toBeGreaterThanOrEqual(0);
    const server = body.data.temp[i];
    // Bilinear between tile nodes of a smooth field, 16-bit quantized: within 0.3 K of the server.
    expect(Math.abs(shown - server)).toBeLessThan(0.3);
    expect([formatValue(METRICS.temp, '°C', server - 0.3), formatValue(METRICS.temp, '°C', server), formatValue(METRICS.temp, '°C', server + 0.3)]).toContain(text.trim());
  });

  test('wind readout shows speed and direction in knots', async ({ page, request }) => {
    await openMap(page, '/?52.000,-25.000,5');
    const timestamp = await showFreeStep(page);
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const picker = page.getByTestId('picker');
    await expect(picker).toHaveAttribute('data-value', /\d/);
    const lat = Number(await picker.getAttribute('data-lat'));
    const lon = Number(await picker.getAttribute('data-lon'));
    const body = await (await request.get(`/forecast/point/demo/v2.9/${lat}/${lon}`)).json() as { ts: number[]; data: Record<string, number[]> };
    const i = body.ts.indexOf(timestamp);
    expect(i).toBeGreaterThanOrEqual(0);
    const speed = Math.hypot(body.data.wind_u[i], body.data.wind_v[i]);
    expect(Math.abs(Number(await picker.getAttribute('data-value')) - speed)).toBeLessThan(0.3);
    await expect(page.getByTestId('picker-value')).toContainText('kt');
    await expect(page.getByTestId('picker-value')).toContainText('from');
  });
});
