/**
 * User journeys of issue 4 in Chromium: a deep link to a point forecast in French; switching
 * overlay, level and units; the back button; settings kept across a reload; screenshots of the
 * app at phone and desktop sizes at DPR 2.
 */

import { expect, type Page } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import { motionSettled, openMap, pickOverlay, stats, settled } from './testing.ts';

const SAMPLE = 'gfs2p5-20170322';

async function waitForProduct(page: Page, ident: string): Promise<void> {
  await expect.poll(async () => {
    const body = await (await page.request.get('/metadata/v1.0/products.json')).json() as { products: { ident: string }[] };
    return body.products.some((p) => p.ident === ident);
  }, { timeout: 90_000, intervals: [1000] }).toBe(true);
}

test.describe('journeys', () => {
  test.setTimeout(120_000);

  test('a deep link to a point forecast in French opens the forecast, in French', async ({ page }) => {
    await openMap(page, '/fr/48.853/2.349');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByTestId('detail')).toBeVisible();
    await expect(page.getByTestId('detail-table')).toBeVisible();
    // The overlay menu and the detail window speak French.
    await expect(page.locator('[data-overlay="temp"]').first()).toContainText('Température');
    await expect(page.getByTestId('detail')).not.toContainText('Temperature');
    await page.screenshot({ path: 'test-results/journey-fr-detail.png' });
  });

  test('switching overlay, level and units; the URL follows', async ({ page }) => {
    await waitForProduct(page, SAMPLE);
    await openMap(page, `/?${SAMPLE},45.000,10.000,4`);
    await expect(page.getByTestId('product-picker')).toHaveValue(SAMPLE);
    await pickOverlay(page, 'temp');
    await expect(page).toHaveURL(/\?temp,/);
    // Temperature has pressure levels in this model: the level selector offers them.
    const levels = page.getByTestId('level-selector');
    await expect(levels.locator('[data-level="850h"]')).toBeVisible();
    await levels.locator('[data-level="850h"]').click();
    await expect(levels.locator('[data-level="850h"]')).toHaveAttribute('aria-checked', 'true');
    await expect(page).toHaveURL(/850h,temp,/);
    await settled(page);
    expect((await stats(page)).tiles.failed).toBe(0);
    // Gusts have one level: back to surface, selector hidden.
    await pickOverlay(page, 'gust');
    await expect(page.getByTestId('level-selector')).toHaveCount(0);
    await expect(page).not.toHaveURL(/850h/);
    // Units: imperial in the settings; the legend follows, and it survives a reload.
    await pickOverlay(page, 'temp');
    await expect(page.getByTestId('legend')).toHaveAttribute('data-unit', '°C');
    await page.getByTestId('menu-button').click();
    await page.locator('[data-menu="settings"]').click();
    await expect(page).toHaveURL(/\/settings\?/);
    await page.locator('[data-setting="defaultUnits"] label', { hasText: 'Imperial' }).click();
    await expect(page.getByTestId('legend')).toHaveAttribute('data-unit', '°F');
    await page.locator('select[data-metric="wind"]').selectOption('km/h');
    // IndexedDB writes are asynchronous: let them land before the page goes.
    await expect.poll(() => page.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open('isobar');
      open.onsuccess = () => {
        const get = open.result.transaction('settings').objectStore('settings').get('metric_wind');
        get.onsuccess = () => resolve((get.result as { value?: string } | undefined)?.value ?? null);
      };
    }))).toBe('km/h');
    await page.reload();
    await openMap(page, page.url());
    await expect(page.getByTestId('legend')).toHaveAttribute('data-unit', '°F');
    await expect(page.locator('select[data-metric="wind"]')).toHaveValue('km/h');
  });

  test('the back button closes what the previous address did not have, and re-centres the map', async ({ page }) => {
    await openMap(page, '/?rain,50.000,14.000,5');
    await page.getByTestId('menu-button').click();
    await expect(page).toHaveURL(/\/menu\?/);
    await page.locator('[data-menu="settings"]').click();
    await expect(page.locator('[data-panel="settings"]')).toBeVisible();
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(/\/\?rain,50\.000,14\.000,5$/);
    await expect(page.locator('[data-panel="settings"]')).toHaveCount(0);
    await expect(page.locator('[data-panel="menu"]')).toHaveCount(0);
    // An unknown path opens nothing.
    await openMap(page, '/no/such/window');
    // Nothing opens for it (the consent and start-up weather cards are not windows of a path).
    await expect(page.locator('.pane .window:not(.window-consent):not(.window-startupWeather)')).toHaveCount(0);
    const events = await page.evaluate(() => (window as unknown as { isobar: { app: { usage: { all: { value: { name: string }[] } } } } }).isobar.app.usage.all.value.map((e) => e.name));
    expect(events).toContain('404');
  });

  for (const [name, width, height] of [['phone', 360, 740], ['desktop', 1920, 1080]] as const) {
    test(`looks right on a ${name} (${width}x${height}, DPR 2)`, async ({ browser }) => {
      const context = await newContext(browser, { viewport: { width, height }, deviceScaleFactor: 2, locale: 'en-GB', timezoneId: 'UTC' });
      const page = await context.newPage();
      await openMap(page, '/?temp,48.853,2.349,5');
      await page.screenshot({ path: `test-results/look-${name}-map.png` });
      await openMap(page, '/48.853/2.349');
      await expect(page.getByTestId('detail')).toBeVisible();
      await settled(page);
      await motionSettled(page);
      await page.screenshot({ path: `test-results/look-${name}-detail.png` });
      await page.goto('/settings');
      await expect(page.locator('[data-panel="settings"]')).toBeVisible();
      await motionSettled(page);
      await page.screenshot({ path: `test-results/look-${name}-settings.png` });
      await context.close();
    });
  }
});
