/**
 * The sounding and radiosonde windows (SPEC §2 /sounding/{lat}/{lon}, /radiosonde/{id}): the skew-T
 * of the GFS 2.5° samples' pressure levels at Denver, its lines, barbs and heights against the
 * meteogram answer it is drawn from, the read-out under the pointer, the product list and the time
 * control; the detail window's link and the menu entry; an unknown radiosonde station said plainly, replacing the sounding in the
 * right pane without animation.
 */

import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './fixtures.ts';
import { openMap } from './testing.ts';

const SAMPLES = ['gfs2p5-20170322', 'gfs2p5-20110110'];

interface Meteogram {
  header: { levels: string[]; refTime: number };
  ts: number[];
  data: Record<string, (number | null)[]>;
}

async function waitForSamples(request: APIRequestContext): Promise<void> {
  await expect.poll(async () => {
    const body = await (await request.get('/metadata/v1.0/products.json')).json() as { products: { ident: string }[] };
    return SAMPLES.every((i) => body.products.some((p) => p.ident === i));
  }, { timeout: 120_000, intervals: [1000] }).toBe(true);
}

test.describe('sounding windows', () => {
  test('the skew-T of a GFS sample: profile, barbs, heights, read-out, products and steps', async ({ page, request }) => {
    await waitForSamples(request);
    const answer = await (await request.get(`/forecast/meteogram/${SAMPLES[0]}/v1.2/40/-105`)).json() as Meteogram;
    await openMap(page, '/sounding/40.000/-105.000');
    const panel = page.getByTestId('sounding-panel');
    await expect(panel).toBeVisible();
    const product = page.getByTestId('sounding-product');
    await expect(product).toBeVisible();
    if (await product.evaluate((e) => e.tagName === 'SELECT')) await product.selectOption(SAMPLES[0]);
    await expect(panel).toHaveAttribute('data-product', SAMPLES[0]);
    const skewT = page.getByTestId('skewt');
    await expect(skewT).toBeVisible();
    // The run's one step, shown with the sample's own date.
    await expect(page.getByTestId('sounding-valid')).toHaveAttribute('data-ts', String(answer.ts[0]));
    await expect(page.getByTestId('sounding-run')).toContainText('2017');

    // Temperature: one vertex per level above the model's ground up to 100 hPa (the top level, 10 hPa, is off the chart).
    const temp = page.getByTestId('skewt-temp');
    await expect(temp).toBeVisible();
    const vertices = ((await temp.getAttribute('d')) ?? '').split(/[ML]/).filter(Boolean).length;
    const aboveGround = answer.header.levels.filter((l) => Number.parseInt(l, 10) >= 100 && answer.data[`gh-${l}`][0]! >= 1500).length;
    expect(vertices).toBeGreaterThanOrEqual(aboveGround - 1);
    expect(vertices).toBeLessThanOrEqual(answer.header.levels.length - 1);
    await expect(page.getByTestId('skewt-barb').first()).toBeVisible();
    // A barb per level, but where two levels are too close to tell apart (925 and 900 hPa: 5 px).
    const barbs = await page.getByTestId('skewt-barb').count();
    expect(barbs).toBeGreaterThanOrEqual(vertices / 2);
    expect(barbs).toBeLessThanOrEqual(vertices);
    // The 500 hPa height label is the answer's geopotential height there (en-GB: metres).
    await expect(page.getByTestId('skewt-height').filter({ hasText: `${Math.round(answer.data['gh-500h'][0]!)}\u00a0m` })).toHaveCount(1);
    // Dew point from the levels' relative humidity and the point forecast's 2 m dew point at the
    // model's ground (the GFS sample has both; a profile with neither has no line: common/sounding).
    await expect(page.getByTestId('skewt-dewpoint')).toBeVisible();
    await expect(page.getByTestId('sounding-no-dewpoint')).toHaveCount(0);
    await expect(page.getByTestId('sounding-indices').locator('tr')).toHaveCount(8);
    await expect(page.getByTestId('hodograph').locator('.hodo-line').first()).toBeVisible();

    // The read-out under the pointer: pressure, height and temperature at that pressure.
    const box = (await skewT.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const readout = page.getByTestId('sounding-readout');
    await expect(readout).toContainText('hPa');
    await expect(readout).toContainText(/T -?\d+\.\d°C/);

    // A single-step run: the time control is there but has nowhere to go.
    const slider = page.getByTestId('sounding-slider');
    await expect(slider).toBeDisabled();
    await expect(page.getByTestId('sounding-single-step')).toBeVisible();
    await page.screenshot({ path: 'test-results/sounding-gfs2p5.png' });

    // The other sample: another profile.
    const before = await temp.getAttribute('d');
    await product.selectOption(SAMPLES[1]);
    await expect(panel).toHaveAttribute('data-product', SAMPLES[1]);
    await expect(page.getByTestId('sounding-run')).toContainText('2011');
    await expect(temp).not.toHaveAttribute('d', before!);
  });

  test('detail link and menu entry, and an unknown radiosonde station replaces the sounding with a clear message', async ({ page, request }) => {
    await waitForSamples(request);
    await openMap(page, `/40.000/-105.000/${SAMPLES[0]}`);
    await page.getByTestId('detail-sounding').click();
    await expect(page).toHaveURL(/\/sounding\/40\.000\/-105\.000/);
    await expect(page.getByTestId('skewt')).toBeVisible();
    // The forecast below would cover the right pane: it closes.
    await expect(page.getByTestId('detail')).toHaveCount(0);
    await page.getByTestId('panel-close').click();
    await expect(page.getByTestId('sounding-panel')).toHaveCount(0);

    await page.getByTestId('menu-button').click();
    await page.locator('[data-menu="sounding"]').click();
    await expect(page).toHaveURL(/\/sounding\/-?\d+\.\d{3}\/-?\d+\.\d{3}/);
    await expect(page.getByTestId('sounding-panel')).toBeVisible();

    await page.evaluate(() => {
      history.pushState(null, '', '/radiosonde/XXXX');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    const error = page.getByTestId('sounding-error');
    await expect(error).toBeVisible();
    await expect(error).toHaveAttribute('data-problem', /^(unknownStation|unavailable)$/);
    await expect(error).toContainText(/XXXX was not found|not available on this server/);
    // Replaced at once: no sounding window left closing beside it, and nothing drawn.
    await expect(page.locator('[data-panel="sounding"]')).toHaveCount(0);
    await expect(page.getByTestId('skewt')).toHaveCount(0);
    await page.screenshot({ path: 'test-results/radiosonde-unknown.png' });
  });
});
