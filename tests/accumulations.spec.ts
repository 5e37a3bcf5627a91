/**
 * Accumulation overlays (SPEC §3 acRange, §4 Accumulation and Animation, §7 tiles with an acRange
 * query): opening rain accumulation stops the animation, its tiles are asked with the range, and
 * a longer range changes what the legend and the picker say.
 */

import { expect, type Page, type Request } from '@playwright/test';
import { test } from './fixtures.ts';
import { openMap, pickOverlay, stats } from './testing.ts';

const H = 3_600_000;

type App = {
  timeline: { timestamp: { value: number }; playing: { value: boolean }; calendar: { value: { refTime: number } | null }; setTimestamp(t: number): void };
  map: { moveTo(center: { lat: number; lon: number }): void };
};
const playing = (page: Page) => page.evaluate(() => (window as unknown as { isobar: { app: App } }).isobar.app.timeline.playing.value);

test.describe('accumulations', () => {
  test('rain accumulation: the animation stops, tiles carry acRange, and 24 h shows more than 12 h in the legend and the picker', async ({ page, request }) => {
    const asked: Request[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rainAccu-surface.tile')) asked.push(r);
    });
    await openMap(page, '/?rain,45.000,10.000,3');
    await page.getByTestId('play').click();
    await expect.poll(() => playing(page)).toBe(true);

    await pickOverlay(page, 'rainAccu');
    // SPEC §4 Animation: stops on a change to an accumulation overlay.
    await expect.poll(() => playing(page)).toBe(false);
    const range = page.getByTestId('accumulation-range');
    await expect(range).toHaveAttribute('data-range', '12');
    await expect(page.getByTestId('legend-range')).toHaveText('next 12 h');
    await expect.poll(() => asked.filter((r) => r.url().endsWith('?acRange=12')).length).toBeGreaterThan(0);
    const first = await asked.find((r) => r.url().endsWith('?acRange=12'))!.response();
    expect(first?.status()).toBe(200);

    // A place where rain falls between 12 and 24 h after the shown time, read from the point
    // forecast of the same product (the free tier's 3-hourly rates, mm/h): the 24-hour amount there
    // exceeds the 12-hour one.
    const shown = await page.evaluate(() => (window as unknown as { isobar: { app: App } }).isobar.app.timeline.timestamp.value);
    let place: { lat: number; lon: number } | null = null;
    for (let lat = -40; lat <= 60 && !place; lat += 10) {
      for (let lon = -150; lon <= 150 && !place; lon += 30) {
        const answer = await request.get(`/forecast/point/demo/v2.9/${lat}/${lon}`);
        expect(answer.status()).toBe(200);
        const { ts, data } = await answer.json() as { ts: number[]; data: { rain: (number | null)[] } };
        const later = ts.map((t, k) => (t >= shown + 12 * H && t < shown + 24 * H ? data.rain[k] ?? 0 : 0)).reduce((a, b) => a + b, 0);
        if (later > 2) place = { lat, lon };
      }
    }
    expect(place, 'a place with rain 12 to 24 h from now').not.toBeNull();
    // The map goes there and the place is clicked: it is then in the middle of the map.
    await page.evaluate(({ lat, lon }) => (window as unknown as { isobar: { app: App } }).isobar.app.map.moveTo({ lat, lon }), place!);
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    const { width, height } = page.viewportSize()!;
    await page.mouse.click(width / 2, height / 2);
    // Every accumulation tile in view came: none refused or failed.
    expect(await Promise.all(asked.map(async (r) => (await r.response())?.status()))).toEqual(asked.map(() => 200));
    expect((await stats(page)).tiles.failed).toBe(0);
    const picker = page.getByTestId('picker');
    await expect(picker).toHaveAttribute('data-value', /\d/);
    const over12 = Number(await picker.getAttribute('data-value'));
    await page.screenshot({ path: test.info().outputPath('accum-12h.png') });

    // The menu of every layer stays open over the range choice until it is folded.
    await page.getByTestId('overlay-more').click();
    await range.locator('[data-hours="24"]').click();
    await expect(range).toHaveAttribute('data-range', '24');
    await expect(page.getByTestId('legend-range')).toHaveText('next 24 h');
    await expect.poll(() => asked.filter((r) => r.url().endsWith('?acRange=24')).length).toBeGreaterThan(0);
    await expect.poll(async () => Number(await picker.getAttribute('data-value')), { timeout: 30_000 }).toBeGreaterThan(over12 + 1);
    await page.screenshot({ path: test.info().outputPath('accum-24h.png') });

    // The setting is the user's: kept when the overlay changes and back.
    await pickOverlay(page, 'rain');
    await expect(range).toHaveCount(0);
    await expect(page.getByTestId('legend-range')).toHaveCount(0);
    await pickOverlay(page, 'rainAccu');
    await expect(range).toHaveAttribute('data-range', '24');
  });

  test('near the end of the forecast the range is fitted: fewer than 12 h left moves the time to end minus 12 h', async ({ page }) => {
    await openMap(page, '/?rain,45.000,10.000,3');
    await pickOverlay(page, 'rainAccu');
    await expect(page.getByTestId('accumulation-range')).toHaveAttribute('data-range', '12');
    // A free user's last step is before the premium days: the range may reach it, no further.
    const { last, limited } = await page.evaluate(() => {
      const { timeline } = (window as unknown as { isobar: { app: App & { timeline: { limit: { value: number | null }; calendar: { value: { timestamps: number[] } } } } } }).isobar.app;
      const limit = timeline.limit.value;
      const steps = timeline.calendar.value.timestamps.filter((t) => limit === null || t <= limit);
      timeline.setTimestamp(steps[steps.length - 1]);
      return { last: steps[steps.length - 1], limited: limit !== null };
    });
    expect(limited).toBe(true);
    await expect(page.getByTestId('timeline-time')).toHaveAttribute('data-timestamp', String(last - 12 * H));
    await expect(page.getByTestId('accumulation-range')).toHaveAttribute('data-range', '12');
  });
});
