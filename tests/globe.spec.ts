import { expect, test, type Page } from '@playwright/test';
import { animationFrames, diffRatio, openMap, screenshotPixels, shareNot, stats } from './testing.ts';

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
