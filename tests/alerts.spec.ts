/**
 * Alerts in the browser (issue 5 item 5) against the real server: a registered user creates an
 * alert in the alerts window (/alerts), asks when the current forecast meets it (GET
 * /users/v4/alerts/{id}/timestamps), pauses it; a test notification shows in the count until cleared. Screenshots at
 * the two SCREENS of tests/testing.ts go to test-results/.
 */

import { expect, type Page } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import { SCREENS } from './testing.ts';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

const PASSWORD = 'Cumulus42';
const uniqueEmail = () => `alerts-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function register(page: Page): Promise<void> {
  await page.goto('/register');
  const form = page.getByTestId('auth-register');
  await form.getByTestId('auth-email').fill(uniqueEmail());
  await form.getByTestId('auth-password').fill(PASSWORD);
  await form.getByTestId('auth-passwordConfirm').fill(PASSWORD);
  await form.getByTestId('auth-submit').click();
  await expect(page.getByTestId('account-button')).toHaveAttribute('data-logged-in', 'true');
}

test('logged out, the alerts window asks for a login', async ({ page }) => {
  await page.goto('/alerts');
  await expect(page.getByTestId('alerts-logged-out')).toBeVisible();
});

for (const { width, height, deviceScaleFactor } of SCREENS) {
  test(`create, check and pause an alert at ${width}x${height}`, async ({ browser }) => {
    const context = await newContext(browser, { viewport: { width, height }, deviceScaleFactor, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    await register(page);
    await page.goto('/alerts');
    await expect(page.locator('section.window-alerts')).toHaveClass(/open/);
    await expect(page.getByTestId('alerts-empty')).toHaveText(/No alerts yet/);
    await expect(page.getByTestId('alerts-new-count')).toHaveText('0 new notifications');
    // The test notification counts in the badge until cleared.
    await page.getByTestId('alerts-send-test').click();
    await expect(page.getByTestId('alerts-new-count')).toHaveText('1 new notification');
    await page.getByTestId('alerts-clear').click();
    await expect(page.getByTestId('alerts-new-count')).toHaveText('0 new notifications');
    await page.getByTestId('alerts-add').click();
    await page.getByTestId('alerts-name').fill('Always warm enough');
    await page.getByTestId('alerts-on-wind').uncheck();
    await page.getByTestId('alerts-on-temperature').check();
    await page.locator('[data-condition="temperature"] input[type="number"]').first().fill('-100');
    await page.getByTestId('alerts-on-time').check();
    await page.screenshot({ path: `test-results/alerts-form-${width}x${height}.png`, animations: 'disabled' });
    await page.getByTestId('alerts-save').click();
    const alert = page.getByTestId('alert');
    await expect(alert).toHaveCount(1);
    await expect(alert.getByTestId('alert-state')).toHaveText('Waiting');
    await alert.getByTestId('alert-times-button').click();
    await expect(alert.getByTestId('alert-times')).toHaveText(/Met \d+ times/);
    await page.screenshot({ path: `test-results/alerts-${width}x${height}.png`, animations: 'disabled' });
    await alert.getByTestId('alert-suspend').click();
    await expect(alert.getByTestId('alert-state')).toHaveText('Paused');
    // Kept in the cloud: a reload shows it.
    await page.reload();
    await expect(page.getByTestId('alert')).toHaveCount(1);
    await page.getByTestId('alert-remove').click();
    await expect(page.getByTestId('alert')).toHaveCount(0);
    await context.close();
  });
}
