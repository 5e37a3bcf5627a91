/**
 * SPEC §2: "A page embedded in a foreign frame (referrer not from the product's own site) shows an
 * 'unlegal embed' notice and stops."
 */

import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../playwright.config.ts';

// Chromium's local network access checks would keep a public page from framing a loopback server at all.
test.use({ launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks'] } });

test.describe('unlegal embed (SPEC §2)', () => {
  test('inside another site\'s frame the notice shows and the map does not start', async ({ page, baseURL }) => {
    await page.route('http://copycat.test/**', (route) => route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Copycat</title><iframe src="${baseURL}/?45.000,10.000,4" style="width:800px;height:600px"></iframe>`,
    }));
    await page.goto('http://copycat.test/');
    const frame = page.frameLocator('iframe');
    await expect(frame.getByTestId('embed-notice')).toBeVisible();
    await expect(frame.getByTestId('embed-notice')).toContainText('This map is shown here without permission');
    await expect(frame.locator('.map')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('embed.png') });
  });

  test('our own page may frame it', async ({ page, baseURL }) => {
    await page.route(`${baseURL}/own-frame.html`, (route) => route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Ours</title><iframe src="/?45.000,10.000,4" style="width:800px;height:600px"></iframe>',
    }));
    await page.goto('/own-frame.html');
    const frame = page.frameLocator('iframe');
    await expect(frame.locator('.map')).toHaveCount(1);
    await expect(frame.getByTestId('embed-notice')).toHaveCount(0);
  });
});

