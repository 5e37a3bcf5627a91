import { expect, test, type Page } from '@playwright/test';
import { diffRatio, mapClip, openMap, screenshotPixels, stats } from './helpers.ts';

const timestamp = async (page: Page) => Number(await page.getByTestId('timeline-time').getAttribute('data-timestamp'));
const H = 3_600_000;

test.describe('controls', () => {
  test('arrow keys step the forecast and stop at the first and last step', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    const start = await timestamp(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => timestamp(page)).toBe(start + H);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => timestamp(page)).toBe(start - H);
    // Shift+arrow does not step.
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForTimeout(100);
    expect(await timestamp(page)).toBe(start - H);
    // Walk to the first step and past it: it stays.
    const slider = page.getByTestId('timeline-slider');
    const min = Number(await slider.getAttribute('min'));
    const max = Number(await slider.getAttribute('max'));
    expect((max - min) / H).toBe(240);
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), min + H);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => timestamp(page)).toBe(min);
    // A free user's last step is the one before the premium days (day index 6 of the run, SPEC §6).
    const limit = await page.evaluate(() => (window as unknown as { isobar: { app: { timeline: { limit: { value: number | null } } } } }).isobar.app.timeline.limit.value);
    expect(limit).not.toBeNull();
    const refDay = Math.floor(min / 86_400_000) * 86_400_000;
    expect(limit! + 1).toBe(refDay + 6 * 86_400_000);
    const lastFree = limit! + 1 - H;
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), max);
    await expect.poll(() => timestamp(page)).toBe(lastFree);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(100);
    expect(await timestamp(page)).toBe(lastFree);
    await expect(page.getByTestId('timeline-premium')).toBeVisible();
  });

  test('play advances the time and pause stops it; the map follows', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    const clip = mapClip(page);
    const start = await timestamp(page);
    await page.getByTestId('play').click();
    await page.waitForTimeout(1200);
    await page.getByTestId('play').click();
    const stopped = await timestamp(page);
    expect(stopped).toBeGreaterThan(start + 2 * H);
    await page.waitForTimeout(300);
    expect(await timestamp(page)).toBe(stopped);
    // The raster shows the new time: the picture is not what it was at the start.
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), start + 48 * H);
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    const later = await screenshotPixels(page, clip);
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), start);
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    await page.waitForTimeout(200);
    expect(diffRatio(later, await screenshotPixels(page, clip))).toBeGreaterThan(0.1);
  });

  test('the legend shows the unit and cycles it on click; the picker follows', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    const legend = page.getByTestId('legend');
    await expect(legend).toHaveAttribute('data-unit', '°C');
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect(page.getByTestId('picker-value')).toContainText('°C');
    await legend.click();
    await expect(legend).toHaveAttribute('data-unit', '°F');
    await expect(page.getByTestId('picker-value')).toContainText('°F');
  });

  test('plus and minus keys zoom, within 3..16', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    await page.keyboard.press('+');
    await expect.poll(() => new URL(page.url()).search).toBe('?temp,45.000,10.000,5');
    for (let i = 0; i < 4; i++) await page.keyboard.press('-');
    await expect.poll(() => new URL(page.url()).search.split(',').pop()).toBe('3');
  });
});

test.describe('robustness', () => {
  test('a tile that fails shows the grey "No data!" tile and others still draw', async ({ page }) => {
    await page.route('**/tiles/v1.0/demo/**/0/0/0/temp-surface.tile', (route) => route.fulfill({ status: 500, body: 'broken' }));
    await page.route('**/tiles/v1.0/demo/**/1/*/*/temp-surface.tile', (route) => {
      const [x] = route.request().url().split('/').slice(-3);
      return x === '0' || x === '1' ? route.fulfill({ status: 200, body: 'not a tile' }) : route.continue();
    });
    await openMap(page, '/?temp,20.000,-60.000,4');
    await expect.poll(async () => (await stats(page)).tiles.failed).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'test-results/no-data.png' });
    const px = await screenshotPixels(page, mapClip(page));
    let grey = 0;
    for (let i = 0; i < px.data.length; i += 4) {
      const [r, g, b] = [px.data[i], px.data[i + 1], px.data[i + 2]];
      if (Math.abs(r - g) < 6 && Math.abs(g - b) < 6 && r > 80 && r < 140) grey++;
    }
    expect(grey / (px.data.length / 4)).toBeGreaterThan(0.2);
  });

  test('after a WebGL context loss the map stops, comes back and draws again', async ({ page }) => {
    await openMap(page, '/?45.000,10.000,4');
    await page.evaluate(() => (window as unknown as { isobar: { render(): { simulateContextLoss(p: { restoreAfterMs: number }): Promise<void> } } }).isobar.render().simulateContextLoss({ restoreAfterMs: 300 }));
    await expect.poll(async () => (await stats(page)).contextLost).toBe(true);
    await expect.poll(async () => (await stats(page)).contextLost, { timeout: 5000 }).toBe(false);
    const before = (await stats(page)).frames;
    await expect.poll(async () => (await stats(page)).frames, { timeout: 10_000 }).toBeGreaterThan(before + 10);
    await expect.poll(async () => (await stats(page)).tiles.loaded).toBeGreaterThan(0);
    const a = await screenshotPixels(page, mapClip(page));
    await page.waitForTimeout(250);
    expect(diffRatio(a, await screenshotPixels(page, mapClip(page)))).toBeGreaterThan(0.002);
  });
});

test.describe('debug window', () => {
  test('/debug shows live engine figures and switches the particle kernel', async ({ page }) => {
    await openMap(page, '/debug?45.000,10.000,4');
    const panel = page.getByTestId('debug-panel');
    await expect(panel).toContainText('Frames per second');
    await expect(panel).toContainText('SwiftShader');
    for (const kernel of ['ts', 'scalar', 'simd'] as const) {
      // A controlled radio: it shows the worker's kernel once the worker has switched.
      await panel.getByRole('radio', { name: { ts: 'Plain TypeScript', scalar: 'WASM scalar', simd: 'WASM SIMD' }[kernel] }).click();
      await expect.poll(async () => (await stats(page)).kernel).toBe(kernel);
      const frames = (await stats(page)).frames;
      await expect.poll(async () => (await stats(page)).frames).toBeGreaterThan(frames + 5);
      expect((await stats(page)).stepMsP50).toBeGreaterThan(0);
    }
  });
});
