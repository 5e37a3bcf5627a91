/**
 * City labels on the map (issue 4 item 6, SPEC §3 "City label", §9 labels zoom 3..11): Paris is
 * labelled with the temperature the point API gives at the shown time, in the user's unit; the
 * labels move with the map while it pans (also when the drag starts on a label), a tap on a label
 * opens its point forecast, no labels above zoom 11. Screenshots at 1920x1080 and 360x740 (DPR 2)
 * go to test-results/.
 */

import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { METRICS, formatValue } from '../common/catalogue/metrics.ts';
import { lonLatToScreen } from '../common/map.ts';
import { animationFrames, openMap, pointerAtRest, showFreeStep, watchPointerMoves } from './testing.ts';

interface PointBody { ts: number[]; data: Record<string, (number | null)[]> }

type IsobarWindow = {
  isobar: {
    app: {
      timeline: { timestamp: { value: number }; calendar: { value: { refTime: number } | null } };
      layer: { product: { value: string }; setOverlay(ident: string): boolean };
      units: { setUnit(metric: string, unit: string): boolean };
      map: { view: { value: { lat: number; lon: number; zoom: number; width: number; height: number } } };
      picker: { position: { value: unknown } };
    };
  };
};

const PARIS_URL = '/?temp,48.853,2.349,6';

function paris(page: Page): Locator {
  return page.getByTestId('city-label').filter({ has: page.locator('.city-label-name', { hasText: /^Paris$/ }) });
}

async function shown(page: Page) {
  return page.evaluate(() => {
    const { app } = (window as unknown as IsobarWindow).isobar;
    return { time: app.timeline.timestamp.value, refTime: app.timeline.calendar.value!.refTime, product: app.layer.product.value, view: app.map.view.value };
  });
}

/** The label's centre on screen. */
async function centre(label: Locator): Promise<{ x: number; y: number }> {
  const box = (await label.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * The Paris label's value as the point API gives it at the shown time, formatted as the map shows
 * it: a pattern of the one or two texts it may read. The city tiles hold values rounded to 2
 * decimals in the base unit (server/routes/labels.ts) and the point API rounds its own, so a value
 * within 0.01 of a rounding edge of the shown unit may fall either side of it.
 */
async function expectedParis(page: Page, metric: string, unit: string, variable: string, prefix = ''): Promise<RegExp> {
  const label = paris(page);
  const lat = Number(await label.getAttribute('data-lat'));
  const lon = Number(await label.getAttribute('data-lon'));
  const { time, refTime, product } = await shown(page);
  const response = await page.request.get(`/forecast/point/${product}/v2.9/${lat}/${lon}?refTime=${refTime}`);
  expect(response.ok()).toBe(true);
  const body = await response.json() as PointBody;
  const at = body.ts.indexOf(time);
  expect(at, 'the shown time is a step of the run').toBeGreaterThanOrEqual(0);
  const value = variable === 'wind' ? Math.hypot(body.data.wind_u[at]!, body.data.wind_v[at]!) : body.data[variable][at]!;
  const texts = new Set([value - 0.01, value, value + 0.01].map((v) => prefix + formatValue(METRICS[metric], unit, v)));
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(${[...texts].map(escape).join('|')})$`);
}

test.describe('city labels', () => {
  test('Paris shows the point API temperature at the shown time, in the user\'s unit', async ({ page }) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await openMap(page, PARIS_URL);
    // A time the free city tiles (3-hourly) hold, so the label shows a stored value, not one between two.
    await showFreeStep(page);
    const label = paris(page);
    await expect(label).toBeVisible();
    await expect(label.locator('.city-label-value')).toHaveText(/^-?\d+°C$/);
    const celsius = await expectedParis(page, 'temp', '°C', 'temp');
    await expect(label.locator('.city-label-value')).toHaveText(celsius);
    // Other places around are labelled too, each with a value.
    expect(await page.getByTestId('city-label').count()).toBeGreaterThan(15);
    await expect(page.locator('.city-label-value:visible').first()).toHaveText(/°C$/);

    // The user's unit: Fahrenheit.
    await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.units.setUnit('temp', '°F'));
    await expect(label.locator('.city-label-value')).toHaveText(await expectedParis(page, 'temp', '°F', 'temp'));
    await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.units.setUnit('temp', '°C'));

    // Another overlay shows its own value: the wind speed with its direction.
    await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.layer.setOverlay('wind'));
    await expect(label.locator('.city-label-value')).toHaveText(await expectedParis(page, 'wind', 'kt', 'wind', '↓'));
    await expect(label.locator('.city-label-arrow')).toHaveCount(1);
    await page.screenshot({ path: 'test-results/labels-wind-1920x1080.png', clip: { x: 560, y: 240, width: 800, height: 600 } });
    await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.layer.setOverlay('temp'));
    await expect(label.locator('.city-label-value')).toHaveText(celsius);
    await page.screenshot({ path: 'test-results/labels-1920x1080.png' });
  });

  test('the labels move with the map while it pans, also when the drag starts on a label', async ({ page }) => {
    await openMap(page, PARIS_URL);
    const label = paris(page);
    await expect(label).toBeVisible();
    const lat = Number(await label.getAttribute('data-lat'));
    const lon = Number(await label.getAttribute('data-lon'));
    const onMap = async () => lonLatToScreen((await shown(page)).view, lon, lat);
    const before = await centre(label);
    const expected = await onMap();
    expect(Math.abs(before.x - expected.x)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(before.y - expected.y)).toBeLessThanOrEqual(1.5);

    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: 'longtask' });
    });
    // Drag from the label itself, 240 px left and 120 px down, then hold still (no inertia).
    await watchPointerMoves(page);
    await page.mouse.move(before.x, before.y);
    await page.mouse.down();
    await page.mouse.move(before.x - 240, before.y + 120, { steps: 24 });
    await pointerAtRest(page);
    await page.mouse.up();
    await expect.poll(async () => (await centre(label)).x, { timeout: 5000 }).toBeLessThan(before.x - 200);
    const after = await centre(label);
    expect(after.x - before.x).toBeCloseTo(-240, -1);
    expect(after.y - before.y).toBeCloseTo(120, -1);
    // Exactly where the map puts Paris now.
    const now = await onMap();
    expect(Math.abs(after.x - now.x)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(after.y - now.y)).toBeLessThanOrEqual(1.5);
    // A drag is not a tap: no forecast, no picker.
    await expect(page).toHaveURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.picker.position.value)).toBeNull();
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    console.info(`main-thread long tasks while panning: ${JSON.stringify(longTasks.map(Math.round))}`);
    // The DESIGN.md budget (no task over 50 ms while panning) is the frame harness's (npm run
    // bench); one drag here on a shared test machine can swing past it. This catches a freeze.
    expect(longTasks.filter((ms) => ms > 200)).toEqual([]);
  });

  test('a tap on a label opens its point forecast', async ({ page }) => {
    await openMap(page, PARIS_URL);
    const label = paris(page);
    await expect(label).toBeVisible();
    await label.click();
    await expect(page).toHaveURL((url) => url.pathname === '/48.853/2.349');
    await expect(page.locator('section.window-detail')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as IsobarWindow).isobar.app.picker.position.value)).toBeNull();
  });

  test('a right-click on a label opens the context menu, not the forecast', async ({ page }) => {
    await openMap(page, PARIS_URL);
    const label = paris(page);
    await expect(label).toBeVisible();
    await label.click({ button: 'right' });
    await expect(page.getByTestId('context-menu')).toBeVisible();
    await expect(page.getByTestId('context-menu').getByRole('menuitem').first()).toBeFocused();
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.locator('section.window-detail')).toHaveCount(0);
  });

  test('no labels above zoom 11; labels on a phone', async ({ page }) => {
    const labelTiles: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/labels/')) labelTiles.push(r.url());
    });
    await openMap(page, '/?temp,48.853,2.349,12');
    // The labels layer has started and drawn this view: above zoom 11 that draw asks for no label
    // tile, so no label can come later.
    await expect(page.getByTestId('city-labels')).toBeAttached();
    await animationFrames(page);
    await expect(page.getByTestId('city-label')).toHaveCount(0);
    expect(labelTiles).toEqual([]);

    await page.setViewportSize({ width: 360, height: 740 });
    await openMap(page, PARIS_URL);
    await expect(paris(page)).toBeVisible();
    await expect(paris(page).locator('.city-label-value')).toHaveText(/°C$/);
    await page.screenshot({ path: 'test-results/labels-360x740.png' });
  });
});

test.describe('city labels on a high-density screen', () => {
  test.use({ deviceScaleFactor: 2, viewport: { width: 1920, height: 1080 } });
  test('screenshot at 1920x1080, DPR 2', async ({ page }) => {
    await openMap(page, PARIS_URL);
    await expect(paris(page).locator('.city-label-value')).toHaveText(/°C$/);
    await page.screenshot({ path: 'test-results/labels-1920x1080-dpr2.png' });
  });
});

test.describe('city labels on a phone', () => {
  test.use({ deviceScaleFactor: 2, viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  test('screenshot at 360x740, DPR 2', async ({ page }) => {
    await openMap(page, '/?temp,50.5,10,5');
    await expect(page.getByTestId('city-label').first()).toBeVisible();
    await page.screenshot({ path: 'test-results/labels-360x740-dpr2.png' });
  });
});
