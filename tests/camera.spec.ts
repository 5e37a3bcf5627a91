import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { animationFrames, diffRatio, mainThreadQuiet, openMap, pointerAtRest, screenshotPixels, stats, watchPointerMoves, type Pixels } from './testing.ts';

/** The camera's centre and zoom as the app state holds them. */
async function camera(page: Page): Promise<{ lat: number; lon: number; zoom: number }> {
  return page.evaluate(() => {
    const { map } = (window as unknown as { isobar: { app: { map: { view: { value: { lat: number; lon: number; zoom: number } } } } } }).isobar.app;
    const { lat, lon, zoom } = map.view.value;
    return { lat, lon, zoom };
  });
}

type TouchPoint = { x: number; y: number; id: number };

/** Real touch input through the DevTools protocol: the browser turns it into pointer events. */
async function touch(page: Page, frames: { type: 'touchStart' | 'touchMove' | 'touchEnd'; points: TouchPoint[] }[], gapMs = 16): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  // Each event carries its own time, gapMs after the one before: the gesture's speed (and whether
  // the finger rested before lifting) is the one written here, however late a busy test machine
  // delivers the events. As a touch screen does, the next event comes after the page drew a frame
  // (a frame takes at least gapMs, so no time stamp lies ahead of the page's clock).
  const start = Date.now() / 1000;
  for (const [i, { type, points }] of frames.entries()) {
    await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points, timestamp: start + (i * gapMs) / 1000 });
    await animationFrames(page, 1);
  }
  await cdp.detach();
}

test.describe('camera', () => {
  test('pinch zooms around the fingers and keeps the point between them in place', async ({ page }) => {
    await openMap(page, '/?temp,40.000,0.000,4');
    const before = await camera(page);
    // Fingers 100 px apart spread to 400 px: two zoom levels.
    const pair = (d: number): TouchPoint[] => [{ x: 640 - d / 2, y: 360, id: 1 }, { x: 640 + d / 2, y: 360, id: 2 }];
    const frames: Parameters<typeof touch>[1] = [{ type: 'touchStart', points: pair(100) }];
    for (let i = 1; i <= 10; i++) frames.push({ type: 'touchMove', points: pair(100 + 30 * i) });
    frames.push({ type: 'touchEnd', points: [] });
    await touch(page, frames);
    const after = await camera(page);
    expect(after.zoom).toBeCloseTo(before.zoom + 2, 1);
    // The midpoint (640, 360) is the screen centre: the centre stays put.
    expect(after.lat).toBeCloseTo(before.lat, 1);
    expect(after.lon).toBeCloseTo(before.lon, 1);
  });

  test('a flick keeps moving after release (inertia), and zoom is clamped to 3..16', async ({ page }) => {
    await openMap(page, '/?temp,40.000,0.000,5');
    // Inertia is judged over the last 100 ms of the gesture: the synthetic touches must not queue
    // behind the start-up work that follows the first particles.
    await mainThreadQuiet(page);
    const frames: Parameters<typeof touch>[1] = [{ type: 'touchStart', points: [{ x: 800, y: 360, id: 1 }] }];
    for (let i = 1; i <= 6; i++) frames.push({ type: 'touchMove', points: [{ x: 800 - 40 * i, y: 360, id: 1 }] });
    frames.push({ type: 'touchEnd', points: [] });
    await touch(page, frames);
    const released = await camera(page);
    // The map goes on moving east after the finger lifted.
    await expect.poll(async () => (await camera(page)).lon).toBeGreaterThan(released.lon + 0.5);
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
    await expect.poll(async () => (await camera(page)).zoom).toBe(3);
    for (let i = 0; i < 60; i++) await page.mouse.wheel(0, -400);
    await expect.poll(async () => (await camera(page)).zoom, { timeout: 10_000 }).toBe(16);
  });

  test('the map wraps horizontally: panning across the antimeridian keeps drawing', async ({ page }) => {
    await openMap(page, '/?temp,0.000,175.000,4');
    const box = (await page.getByTestId('map').boundingBox())!;
    // 200 px to the west at zoom 4 (a 4096 px world) is 17.6° east of 175°: 167.4° W. The pointer
    // rests before the release: no flick.
    await watchPointerMoves(page);
    await page.mouse.move(box.x + 900, box.y + 360);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 900 - 20 * i, box.y + 360);
    await pointerAtRest(page);
    await page.mouse.up();
    // A few frames on: inertia, had it started, would have moved the map in each.
    await animationFrames(page, 3);
    const { lon } = await camera(page);
    expect(lon).toBeCloseTo(-167.4, 0);
    await expect.poll(() => Number(new URL(page.url()).search.split(',')[2])).toBeCloseTo(-167.4, 0);
    // Both sides of the antimeridian show data: no empty half.
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    await page.screenshot({ path: 'test-results/antimeridian.png' });
  });

  test('the weather and the particles draw on the copy of the world west of 180° W', async ({ page }) => {
    // SPEC §9: the world repeats. Centred on 90° W at zoom 3 (a 2048 px world) the 1280 px view runs
    // from 202.5° W to 22.5° E: left of x = 128 px lie 157.5° E .. 180° of the copy to the west.
    await openMap(page, '/?temp,0.000,-90.000,3');
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    // Below the top bar, above the consent panel.
    const strip = { x: 0, y: 70, width: 120, height: 300 };
    const a = await screenshotPixels(page, strip);
    await page.screenshot({ path: 'test-results/wrap-west.png' });
    // The basemap alone shows its sea and land colours there (workers/layers/basemap/basemap.ts).
    expect(shareNotAny(a, [[14, 23, 38], [43, 48, 54]])).toBeGreaterThan(0.8);
    // The particles move there too.
    await expect.poll(async () => diffRatio(a, await screenshotPixels(page, strip))).toBeGreaterThan(0.002);
  });

  test('on a view wider than the world the particles draw on both copies', async ({ page }) => {
    // 2400 px at zoom 3 (a 2048 px world) centred on 180°: the 176 px at either end show the
    // longitudes more than 180° from the centre, the copies of those at the other end.
    await page.setViewportSize({ width: 2400, height: 800 });
    await openMap(page, '/?temp,0.000,180.000,3');
    const band = { x: 10, y: 120, width: 150, height: 300 };
    const a = await screenshotPixels(page, band);
    expect(shareNotAny(a, [[14, 23, 38], [43, 48, 54]])).toBeGreaterThan(0.8);
    await expect.poll(async () => diffRatio(a, await screenshotPixels(page, band))).toBeGreaterThan(0.002);
    await page.screenshot({ path: 'test-results/wrap-wide.png' });
  });
});

/** Share of pixels that differ from every one of `colors` by more than `threshold` in some channel. */
function shareNotAny(p: Pixels, colors: [number, number, number][], threshold = 12): number {
  let other = 0;
  for (let i = 0; i < p.data.length; i += 4) {
    const near = colors.some(([r, g, b]) => Math.abs(p.data[i] - r) <= threshold && Math.abs(p.data[i + 1] - g) <= threshold && Math.abs(p.data[i + 2] - b) <= threshold);
    if (!near) other++;
  }
  return other / (p.data.length / 4);
}
