import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { animationFrames, diffRatio, openMap, screenshotPixels, shareNot, stats, type Pixels } from './testing.ts';

interface MapHandle { isobar: { app: { map: { view: { value: { lon: number; lat: number; zoom: number; globe?: boolean } } } }; settings: { get(k: string): unknown } } }

const view = (page: Page) => page.evaluate(() => (window as unknown as MapHandle).isobar.app.map.view.value);

test('the globe: opens with weather colours and moving particles, turns under a drag, and goes back to the flat map', async ({ page }) => {
  await openMap(page, '/?30.000,10.000,3');
  const framesBefore = (await stats(page)).frames;
  await page.getByTestId('globe-open').click();
  await expect(page.getByTestId('globe-window')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { get(k: string): unknown } } } }).isobar.app.settings.get('mapLibrary'))).toBe('globe');
  // The globe's tiles are in and particles are drawn again on it.
  await expect.poll(async () => {
    const s = await stats(page);
    return s.tiles.loading === 0 && s.frames > framesBefore + 10;
  }, { timeout: 20_000 }).toBe(true);

  const size = page.viewportSize()!;
  const cx = Math.round(size.width / 2);
  const cy = Math.round(size.height / 2);
  // The middle of the disc: weather colours, not the sea's or space's.
  const disc = { x: cx - 100, y: cy - 80, width: 200, height: 160 };
  const middle = await screenshotPixels(page, disc);
  expect(shareNot(middle, [4, 5, 9])).toBeGreaterThan(0.95);
  expect(shareNot(middle, [14, 23, 38])).toBeGreaterThan(0.8);
  // Outside the disc: dark space.
  const corner = await screenshotPixels(page, { x: Math.round(size.width * 0.78), y: Math.round(size.height * 0.02), width: 30, height: 30 });
  expect(shareNot(corner, [4, 5, 9], 6)).toBeLessThan(0.05);
  await page.screenshot({ path: 'test-results/globe.png' });
  // Particles move.
  await expect.poll(async () => diffRatio(middle, await screenshotPixels(page, disc))).toBeGreaterThan(0.002);

  // A drag turns the globe.
  const before = await view(page);
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(cx - 20 * i, cy + 5 * i);
  await page.mouse.up();
  await expect.poll(async () => (await view(page)).lon - before.lon).toBeGreaterThan(10);
  expect((await view(page)).globe).toBe(true);

  // A click on the disc picks the point under it (the globe's inverse projection), shown where it was clicked.
  // The inertia turns the globe on each animation frame: it has stopped when frames pass without a turn.
  await expect.poll(async () => {
    const a = (await view(page)).lon;
    await animationFrames(page, 3);
    return (await view(page)).lon - a;
  }).toBe(0);
  const turned = await view(page);
  await page.mouse.click(cx, cy);
  const picker = page.getByTestId('picker');
  await expect(picker).toHaveAttribute('data-value', /\d/);
  expect(Number(await picker.getAttribute('data-lat'))).toBeCloseTo(turned.lat, 0);
  const box = (await picker.boundingBox())!;
  expect(Math.abs(box.x - cx)).toBeLessThan(40);

  await page.getByTestId('globe-close').click();
  await expect(page.getByTestId('globe-open')).toBeVisible();
  const after = await view(page);
  expect(after.globe).toBe(false);
  expect(after.zoom).toBeGreaterThanOrEqual(3);
  // The flat map draws again: no space colour left in the middle.
  await expect.poll(async () => shareNot(await screenshotPixels(page, disc), [4, 5, 9])).toBeGreaterThan(0.98);
});

test('on the globe a failed tile shows a coarser tile in its place, as the flat map shows a loaded parent', async ({ page }) => {
  // Every temperature tile of data zoom 1 fails; zoom 0 serves.
  let failedZ1 = 0;
  await page.route('**/tiles/v1.0/demo/**/1/*/*/temp-surface.tile', (route) => {
    failedZ1++;
    return route.fulfill({ status: 500, body: 'broken' });
  });
  // The flat map at zoom 4 asks for zoom-1 tiles only: they fail ("No data!"), and no zoom-0 tile is loaded.
  await openMap(page, '/?temp,30.000,10.000,4');
  await expect.poll(async () => (await stats(page)).tiles.failed).toBeGreaterThan(0);
  // The globe at zoom 4.5 (data zoom 1), in one step: its zoom-1 tiles fail, and zoom 0 stands in.
  await page.evaluate(() => {
    const app = (window as unknown as { isobar: { app: { settings: { set(k: string, v: unknown): boolean }; map: { moveTo(c: { zoom: number }): void } } } }).isobar.app;
    app.settings.set('mapLibrary', 'globe');
    app.map.moveTo({ zoom: 4.5 });
  });
  await expect(page.getByTestId('globe-window')).toBeVisible();
  expect((await view(page)).zoom).toBeCloseTo(4.5, 6);
  const size = page.viewportSize()!;
  const disc = { x: Math.round(size.width / 2) - 150, y: Math.round(size.height / 2) - 100, width: 300, height: 200 };
  // Temperature colours over the middle of the disc, not the globe's bare sea and land (workers/layers/globe GLOBE_COLORS).
  const bare = (px: Pixels) => {
    let n = 0;
    for (let i = 0; i < px.data.length; i += 4) {
      const near = ([r, g, b]: number[]) => Math.abs(px.data[i] - r) <= 12 && Math.abs(px.data[i + 1] - g) <= 12 && Math.abs(px.data[i + 2] - b) <= 12;
      if (near([14, 23, 38]) || near([43, 48, 54])) n++;
    }
    return n / (px.data.length / 4);
  };
  await expect.poll(async () => {
    const s = await stats(page);
    return s.tiles.loading === 0 && s.tiles.failed > 0;
  }, { timeout: 20_000 }).toBe(true);
  await page.screenshot({ path: 'test-results/globe-failed-tiles.png' });
  await expect.poll(async () => bare(await screenshotPixels(page, disc)), { timeout: 20_000 }).toBeLessThan(0.1);
  expect(failedZ1).toBeGreaterThan(0);
});
