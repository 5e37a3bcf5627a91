import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { diffRatio, mapClip, openMap, screenshotPixels, stats, workerFrames, type Pixels } from './testing.ts';

const timestamp = async (page: Page) => Number(await page.getByTestId('timeline-time').getAttribute('data-timestamp'));
type Timeline = { timestamp: { value: number }; playing: { value: boolean } };
const timeline = (page: Page) => page.evaluate(() => {
  const { timestamp, playing } = (window as unknown as { isobar: { app: { timeline: Timeline } } }).isobar.app.timeline;
  return { timestamp: timestamp.value, playing: playing.value };
});
const H = 3_600_000;

test.describe('controls', () => {
  test('arrow keys step the forecast and stop at the first and last step', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    const slider = page.getByTestId('timeline-slider');
    const min = Number(await slider.getAttribute('min'));
    const max = Number(await slider.getAttribute('max'));
    expect((max - min) / H).toBe(240);
    // From a step a day into the run: the time shown at start-up is the current hour, which is the
    // run's first step in the hour after a new run starts (no step before it then).
    const start = min + 24 * H;
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), start);
    await expect.poll(() => timestamp(page)).toBe(start);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => timestamp(page)).toBe(start + H);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => timestamp(page)).toBe(start - H);
    // Shift+arrow does not step: the plain arrow pressed after it (keys are handled in order) steps
    // from where the shifted one left the time. Had Shift+Left stepped, the time would go
    // start - 2 h, then start - 1 h, and never reach the start.
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => timestamp(page)).toBe(start);
    // Walk to the first step and past it: it stays.
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
    // The step past it is refused: the left arrow after it lands one step before the last free one
    // (had the right arrow stepped into the premium days, the left one would come back to lastFree).
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => timestamp(page)).toBe(lastFree - H);
    await expect(page.getByTestId('timeline-premium')).toBeVisible();
  });

  test('play advances the time and pause stops it; the map follows', async ({ page }) => {
    await openMap(page, '/?temp,45.000,10.000,4');
    const clip = mapClip(page);
    const start = await timestamp(page);
    await page.getByTestId('play').click();
    await expect.poll(() => timestamp(page)).toBeGreaterThan(start + 2 * H);
    await page.getByTestId('play').click();
    // Paused: the model no longer plays (its timer goes with the flag), and the time shown is the
    // time it stopped at.
    await expect.poll(async () => (await timeline(page)).playing).toBe(false);
    const stopped = (await timeline(page)).timestamp;
    expect(stopped).toBeGreaterThan(start + 2 * H);
    await expect(page.getByTestId('timeline-time')).toHaveAttribute('data-timestamp', String(stopped));
    // The raster shows the new time: the picture is not what it was at the start.
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), start + 48 * H);
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    // Frames drawn after the tiles came in show them.
    await workerFrames(page);
    const later = await screenshotPixels(page, clip);
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), start);
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    await expect.poll(async () => diffRatio(later, await screenshotPixels(page, clip))).toBeGreaterThan(0.1);
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

test.describe('layer menu on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  test('the topics filter the layers (SPEC §3 mobileMenuFilter), the choice is kept, search finds by name', async ({ page }) => {
    await openMap(page, '/?45.000,10.000,4');
    await page.getByTestId('overlay-more').click();
    const filters = page.getByTestId('overlay-filters');
    await filters.locator('[data-filter="warnings"]').click();
    const list = page.getByTestId('overlay-all');
    await expect(list).toHaveAttribute('data-filter', 'warnings');
    await expect(list.locator('[data-overlay="capAlerts"]')).toHaveCount(1);
    await expect(list.locator('[data-overlay="hurricanes"]')).toHaveCount(1);
    await expect(list.locator('[data-overlay="temp"]')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('phone-warnings-topic.png') });
    await filters.locator('[data-filter="sea"]').click();
    await expect(list.locator('[data-overlay="waves"]')).toHaveCount(1);
    await expect(list.locator('[data-overlay="capAlerts"]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { isobar: { app: { settings: { get(k: string): unknown } } } }).isobar.app.settings.get('mobileMenuFilter'))).toBe('sea');
    await filters.locator('[data-filter="search"]').click();
    await page.getByTestId('overlay-filter-search').fill('dew');
    await expect(list.locator('[data-overlay]')).toHaveCount(1);
    await list.locator('[data-overlay="dewpoint"]').click();
    await expect(page).toHaveURL(/\?dewpoint,/);
  });

  test('the right column (isolines, warnings, lightning, fires, tides, airports) stands clear of the layer bar', async ({ page }) => {
    await openMap(page, '/?45.000,10.000,4');
    // Each control of the right column against each of the bottom stack's (the layer bar, the
    // legend, the timeline): a fixed offset left the observation toggles half under the layer bar.
    await expect.poll(() => page.evaluate(() => {
      const boxes = (selector: string) => [...document.querySelectorAll(selector)].map((el) => ({ el, r: el.getBoundingClientRect() })).filter((b) => b.r.height > 0);
      const bottom = boxes('.app > .bottom > *');
      const bad: string[] = [];
      for (const c of boxes('.map-controls-right > *')) {
        for (const b of bottom) {
          if (c.r.left < b.r.right && b.r.left < c.r.right && c.r.top < b.r.bottom && b.r.top < c.r.bottom) bad.push(`${c.el.className} over ${b.el.className}`);
        }
      }
      return bad;
    })).toEqual([]);
    await expect(page.getByTestId('metars-toggle')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('phone-right-column.png') });
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
    const greyShare = (px: Pixels) => {
      let grey = 0;
      for (let i = 0; i < px.data.length; i += 4) {
        const [r, g, b] = [px.data[i], px.data[i + 1], px.data[i + 2]];
        if (Math.abs(r - g) < 6 && Math.abs(g - b) < 6 && r > 80 && r < 140) grey++;
      }
      return grey / (px.data.length / 4);
    };
    await expect.poll(async () => greyShare(await screenshotPixels(page, mapClip(page)))).toBeGreaterThan(0.2);
    await page.screenshot({ path: 'test-results/no-data.png' });
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
    await expect.poll(async () => diffRatio(a, await screenshotPixels(page, mapClip(page)))).toBeGreaterThan(0.002);
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
