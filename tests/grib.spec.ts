import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { diffRatio, mapClip, openMap, screenshotPixels, stats } from './testing.ts';

const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const MICHAEL = `${DATA}samples/gfs-1p0-wind-2018-10/gfs1p0_10m-uv_2018100618-2018101621_3h.grib2`;
const GFS_2P5 = `${DATA}samples/gfs-2p5-full/gfs2p5_20170322T00_f000_full.grib2`;
const present = existsSync(MICHAEL) && existsSync(GFS_2P5);
if (!present && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error(`GRIB fixtures missing under ${DATA} (ISOBAR_REQUIRE_FIXTURES=1)`);

test.describe('your own GRIB file in the browser', () => {
  test.skip(!present, `GRIB fixtures not found under ${DATA}`);

  test('a picked file shows with colours and particles, its own dates, and is never uploaded', async ({ page }) => {
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.method() !== 'HEAD') uploads.push(`${r.method()} ${r.url()}`);
    });
    await openMap(page, '/?25.000,-85.000,4');
    await page.getByTestId('grib-input').setInputFiles(MICHAEL);
    await expect(page.getByTestId('local-badge')).toContainText('gfs1p0_10m-uv_2018100618-2018101621_3h.grib2');
    // 80 steps every 3 h from 2018-10-06 18Z; the file starts at its first step.
    await expect(page.getByTestId('timeline-time')).toHaveAttribute('data-timestamp', String(Date.UTC(2018, 9, 6, 18)));
    const slider = page.getByTestId('timeline-slider');
    await expect(slider).toHaveAttribute('max', String(Date.UTC(2018, 9, 16, 21)));
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    const clip = mapClip(page);
    const a = await screenshotPixels(page, clip);
    // The particles move: a later picture differs.
    await expect.poll(async () => diffRatio(a, await screenshotPixels(page, clip))).toBeGreaterThan(0.002);
    expect(uploads).toEqual([]);
    await page.screenshot({ path: 'test-results/grib-michael.png' });
  });

  test('the hurricane is where the file has it: the strongest wind near 27° N 87° W on 10 October 18Z', async ({ page }) => {
    await openMap(page, '/?27.000,-87.000,5');
    await page.getByTestId('grib-input').setInputFiles(MICHAEL);
    await expect(page.getByTestId('local-badge')).toBeVisible();
    await page.evaluate((t) => (window as unknown as { isobar: { app: { timeline: { setTimestamp(t: number): void } } } }).isobar.app.timeline.setTimestamp(t), Date.UTC(2018, 9, 10, 12));
    await expect.poll(async () => (await stats(page)).tiles.loading).toBe(0);
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.getByTestId('picker')).toHaveAttribute('data-value', /\d/);
    // A 1° model smooths the eye wall, but the wind there is still strong.
    expect(Number(await page.getByTestId('picker').getAttribute('data-value'))).toBeGreaterThan(10);
    await page.screenshot({ path: 'test-results/grib-michael-landfall.png' });
  });

  test('a dropped file opens too, and its temperature reads in the user unit', async ({ page }) => {
    await openMap(page, '/?45.000,0.000,3');
    // Base64 crosses into the page far faster than an array of numbers.
    const base64 = (await readFile(GFS_2P5)).toString('base64');
    await page.evaluate(async (text) => {
      const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'gfs2p5_20170322T00_f000_full.grib2'));
      window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
    }, base64);
    await expect(page.getByTestId('local-badge')).toBeVisible();
    await page.locator('[data-overlay="temp"]').click();
    await expect(page.getByTestId('legend')).toHaveAttribute('data-unit', '°C');
    const box = (await page.getByTestId('map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.getByTestId('picker-value')).toContainText('°C');
    await page.getByTestId('local-badge').getByRole('button').click();
    await expect(page.getByTestId('local-badge')).toHaveCount(0);
    await expect(page.getByTestId('demo-badge')).toBeVisible();
  });

  test('a file that is not GRIB gives a clear error and the map stays as it was', async ({ page }) => {
    await openMap(page, '/?45.000,0.000,3');
    await page.getByTestId('grib-input').setInputFiles({ name: 'notes.grib2', mimeType: 'application/octet-stream', buffer: Buffer.from('hello, not a grib file') });
    await expect(page.getByTestId('grib-error')).toContainText('Could not open notes.grib2');
    await expect(page.getByTestId('grib-error')).toContainText('GRIB');
    await expect(page.getByTestId('demo-badge')).toBeVisible();
    await expect(page.getByTestId('local-badge')).toHaveCount(0);
  });
});
