import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { motionSettled, openMap, SCREENS } from './testing.ts';

/** The map centre and zoom, read from the app's map model. */
const camera = (page: Page) => page.evaluate(() => {
  const { map } = (window as unknown as { isobar: { app: { map: { lat: { value: number }; lon: { value: number }; zoom: { value: number } } } } }).isobar.app;
  return { lat: map.lat.value, lon: map.lon.value, zoom: map.zoom.value };
});
const pathname = (page: Page) => new URL(page.url()).pathname;
const options = (page: Page) => page.getByTestId('search-results').getByRole('option');
/**
 * A shared position in the URL: no start-up weather card (it shares the top pane with the search
 * window and would close it if it opened while the test types), and a world view, so the search
 * ranks without nearness.
 */
const START = '/?47.000,10.000,4';

test.describe('search', () => {
  test('F opens search; "pra" finds Prague; Enter moves the map there and opens its forecast path', async ({ page }) => {
    await openMap(page, START);
    await page.keyboard.press('f');
    const input = page.getByTestId('search-input');
    await expect(input).toBeFocused();
    // The F that opened the window is not typed into it.
    await expect(input).toHaveValue('');
    await input.pressSequentially('pra');
    await expect(options(page).first()).toContainText('Prague');
    await expect(options(page).first()).toContainText('Czechia');
    await expect(options(page).first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect.poll(() => pathname(page)).toBe('/50.088/14.421');
    await expect(page.locator('.window-search')).toHaveCount(0);
    const at = await camera(page);
    expect(at.lat).toBeCloseTo(50.088, 2);
    expect(at.lon).toBeCloseTo(14.421, 2);
    expect(at.zoom).toBeGreaterThanOrEqual(10);
  });

  test('recents show on reopening, and after a reload', async ({ page }) => {
    await openMap(page, START);
    await page.keyboard.press('f');
    await page.getByTestId('search-input').fill('zurich');
    await expect(options(page).first()).toContainText('Zürich');
    await options(page).first().click();
    await expect.poll(() => pathname(page)).toBe('/47.367/8.550');
    await page.keyboard.press('f');
    await expect(page.getByRole('heading', { name: 'Recent searches' })).toBeVisible();
    await expect(options(page).first()).toContainText('Zürich');
    await page.keyboard.press('Escape');
    await expect(page.locator('.window-search')).toHaveCount(0);
    // Kept in IndexedDB (searchRecents2): still there in a new page view.
    await openMap(page, START);
    await page.getByTestId('search-button').click();
    await expect(options(page).first()).toContainText('Zürich');
  });

  test('"qqqqzzz" shows Nothing found; arrows move through results; airports and coordinates work', async ({ page }) => {
    await openMap(page, START);
    await page.getByTestId('search-button').click();
    const input = page.getByTestId('search-input');
    await input.fill('qqqqzzz');
    await expect(page.getByTestId('search-status')).toHaveText('Nothing found');
    await expect(options(page)).toHaveCount(0);

    // "london": London, GB first; one arrow down is London, Ontario.
    await input.fill('london');
    await expect(options(page).first()).toContainText('United Kingdom');
    await page.keyboard.press('ArrowDown');
    await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(options(page).last()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(options(page).nth(1)).toContainText('Canada');
    await page.keyboard.press('Enter');
    await expect.poll(() => pathname(page)).toBe('/42.983/-81.233');

    await page.keyboard.press('f');
    await input.fill('EGLL');
    await expect(options(page).first()).toContainText('London Heathrow Airport');
    await expect(options(page).first()).toContainText('EGLL · LHR');
    await input.fill('LHR');
    await expect(options(page).first()).toContainText('London Heathrow Airport');
    await page.keyboard.press('Enter');
    await expect.poll(() => pathname(page)).toBe('/51.471/-0.462');

    await page.keyboard.press('f');
    await input.fill('48°51\'24"N 2°21\'03"E');
    await expect(options(page)).toHaveCount(1);
    await expect(options(page).first()).toContainText('48.857, 2.351');
    await page.keyboard.press('Enter');
    await expect.poll(() => pathname(page)).toBe('/48.857/2.351');
    const at = await camera(page);
    expect(at.lat).toBeCloseTo(48.857, 2);
    expect(at.lon).toBeCloseTo(2.351, 2);
  });

  for (const { name, width, height, deviceScaleFactor } of SCREENS) {
    const viewport = { width, height };
    test.describe(name, () => {
      test.use({ viewport, deviceScaleFactor });
      test(`search at ${viewport.width}x${viewport.height}`, async ({ page }) => {
        await openMap(page, START);
        await page.screenshot({ path: `test-results/search-${name}-closed.png` });
        await page.getByTestId('search-button').click();
        const input = page.getByTestId('search-input');
        await expect(input).toBeFocused();
        await expect(page.getByTestId('search-status')).toBeVisible();
        await motionSettled(page);
        await page.screenshot({ path: `test-results/search-${name}-empty.png` });
        await input.fill('san');
        await expect(options(page)).toHaveCount(10);
        await page.keyboard.press('ArrowDown');
        await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
        await motionSettled(page);
        await page.screenshot({ path: `test-results/search-${name}-results.png` });
        // The window fits the screen and its field is on it.
        const box = (await page.locator('.window-search').boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
        if (name === 'phone') expect(box.width).toBeCloseTo(viewport.width, 0);
        await options(page).first().click();
        await expect.poll(() => pathname(page)).toMatch(/^\/-?\d+\.\d{3}\/-?\d+\.\d{3}$/);
      });
    });
  }
});
