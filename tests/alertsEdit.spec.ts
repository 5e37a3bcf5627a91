/**
 * The alert editor and the notification badge (issue 5 item 5; SPEC §2 route /alerts-edit/{id},
 * §3 "Alert", §4 "Login" pending action alerts-edit and notification polling) against the real
 * server: an alert made in the alerts window opens with Edit, prefilled; a changed wind speed and
 * weekday are saved to the server and come back after a reload; problems show beside their
 * condition; Delete asks first; an unknown id says "Alert not found"; logged out, the editor opens
 * after the login; new notifications show as a badge on the menu button ("99+" above 99) until the
 * alerts window opens. Screenshots of the editor at the two SCREENS of tests/testing.ts go to
 * test-results/.
 */

import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import { SCREENS } from './testing.ts';

/** en-US: a region that needs no cookie consent, so no consent window covers the forms. */
test.use({ locale: 'en-US', timezoneId: 'UTC' });

const PASSWORD = 'Cumulus42';
const uniqueEmail = () => `alerts-edit-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

interface User { email: string; token: string }

/** A user made through the API (POST /users/v1/register), with the token it answered. */
async function registerUser(request: APIRequestContext): Promise<User> {
  const email = uniqueEmail();
  const answer = await request.post('/users/v1/register', { data: { email, password: PASSWORD, passwordConfirm: PASSWORD } });
  expect(answer.status()).toBe(201);
  const { token } = await answer.json() as { token: string };
  return { email, token };
}

const auth = (user: User) => ({ authorization: `Bearer ${user.token}` });

async function createAlert(request: APIRequestContext, user: User, name: string): Promise<string> {
  const answer = await request.post('/users/v1/data/alerts', {
    headers: auth(user),
    data: { lat: 45.5, lon: 13.6, name, product: 'gfs', state: 'normal', conditions: [{ type: 'wind', min: 8, directions: ['NE', 'E'] }] },
  });
  expect(answer.status()).toBe(201);
  return (await answer.json() as { id: string }).id;
}

async function storedAlerts(request: APIRequestContext, user: User): Promise<Array<{ id: string; value: Record<string, unknown> }>> {
  const answer = await request.get('/users/v1/data/alerts', { headers: auth(user) });
  expect(answer.ok()).toBe(true);
  return answer.json();
}

async function sendTestNotifications(request: APIRequestContext, user: User, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const answer = await request.post('/notif/v1/notifications/send-test', { headers: auth(user), data: { notificationType: 'test' } });
    expect(answer.status()).toBe(201);
  }
}

async function login(page: Page, user: User): Promise<void> {
  const form = page.getByTestId('auth-login');
  await expect(form).toBeVisible();
  await form.getByTestId('auth-email').fill(user.email);
  await form.getByTestId('auth-password').fill(PASSWORD);
  await form.getByTestId('auth-submit').click();
  await expect(page.getByTestId('account-button')).toHaveAttribute('data-logged-in', 'true');
}

async function newPage(browser: Browser, width = 1280, height = 720, deviceScaleFactor = 2): Promise<Page> {
  const context = await newContext(browser, { viewport: { width, height }, deviceScaleFactor, locale: 'en-US', timezoneId: 'UTC' });
  return context.newPage();
}

/** The address's path is this one (the shared search part of SPEC §2 may follow). */
const atPath = (path: string) => new RegExp(`^[^?]*${path}(\\?|$)`);
const editor = (page: Page) => page.locator('section.window-alerts-edit');
const chip = (page: Page, group: string, value: string) => page.getByTestId(group).locator(`[data-value="${value}"]`);

for (const { width, height, deviceScaleFactor } of SCREENS) {
  test(`edit an alert: prefilled, saved to the server, there after a reload, at ${width}x${height}`, async ({ browser, request }) => {
    const user = await registerUser(request);
    const page = await newPage(browser, width, height, deviceScaleFactor);
    await page.goto('/login');
    await login(page, user);

    // A new alert from the alerts window: wind at least 10 m/s on every day, 8 to 20 h.
    await page.goto('/alerts');
    await expect(page.locator('section.window-alerts')).toHaveClass(/open/);
    await page.getByTestId('alerts-add').click();
    await page.getByTestId('alerts-name').fill('Kite spot');
    await page.getByTestId('alerts-on-time').check();
    await page.getByTestId('alerts-save').click();
    await expect(page.getByTestId('alert')).toHaveCount(1);
    const [stored] = await storedAlerts(request, user);

    // Edit opens /alerts-edit/{id} with the alert's values.
    await page.getByTestId('alert-edit').click();
    await expect(page).toHaveURL(atPath(`/alerts-edit/${stored.id}`));
    await expect(editor(page)).toHaveClass(/open/);
    await expect(page.locator('section.window-alerts')).toHaveCount(0);
    await expect(page.getByTestId('alerts-name')).toHaveValue('Kite spot');
    await expect(page.getByTestId('alerts-field-windMin')).toHaveValue('10');
    await expect(page.getByTestId('alerts-on-time')).toBeChecked();
    await expect(page.getByTestId('alerts-on-rainfall')).not.toBeChecked();
    for (const day of ['mon', 'sat', 'sun']) await expect(chip(page, 'alerts-days', day)).toHaveClass(/\bon\b/);
    await expect(page.getByTestId('alerts-field-fromHour')).toHaveValue('8');
    await expect(page.getByTestId('alerts-place')).toContainText(`${(stored.value.lat as number).toFixed(2)}, ${(stored.value.lon as number).toFixed(2)}`);
    await page.screenshot({ path: `test-results/alerts-edit-${width}x${height}.png`, animations: 'disabled' });

    // A problem shows beside its condition, and nothing is sent.
    await page.getByTestId('alerts-field-windMax').fill('5');
    await page.getByTestId('alerts-save').click();
    await expect(page.getByTestId('alerts-problem-wind')).toContainText('lowest speed must not be above the highest');
    await expect(page.getByTestId('alerts-error')).toBeVisible();
    await page.screenshot({ path: `test-results/alerts-edit-problem-${width}x${height}.png`, animations: 'disabled' });
    await expect(page).toHaveURL(atPath(`/alerts-edit/${stored.id}`));

    // Change wind min and a weekday, save: back in the alerts window, stored by the server.
    await page.getByTestId('alerts-field-windMax').fill('');
    await page.getByTestId('alerts-field-windMin').fill('12.5');
    await chip(page, 'alerts-days', 'sat').click();
    await expect(page.getByTestId('alerts-problem-wind')).toHaveCount(0);
    await page.getByTestId('alerts-save').click();
    await expect(page).toHaveURL(atPath('/alerts'));
    await expect(page.locator('section.window-alerts')).toHaveClass(/open/);
    await expect(page.getByTestId('alert').locator('.alert-conditions')).toContainText('Wind ≥ 12.5 m/s');
    const [saved] = await storedAlerts(request, user);
    expect(saved.id).toBe(stored.id);
    expect(saved.value).toMatchObject({
      name: 'Kite spot', lat: stored.value.lat, lon: stored.value.lon, product: stored.value.product, state: 'normal',
      conditions: [{ type: 'wind', min: 12.5 }, { type: 'time', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sun'], fromHour: 8, toHour: 20 }],
    });

    // After a reload the list and the editor show the changed values (also on a reload of the editor's own address).
    await page.reload();
    await expect(page.getByTestId('alert').locator('.alert-conditions')).toContainText('Mon Tue Wed Thu Fri Sun, 8:00 to 20:00');
    await page.getByTestId('alert-edit').click();
    await expect(page.getByTestId('alerts-field-windMin')).toHaveValue('12.5');
    await page.reload();
    await expect(editor(page)).toHaveClass(/open/);
    await expect(page.getByTestId('alerts-field-windMin')).toHaveValue('12.5');
    await expect(chip(page, 'alerts-days', 'sat')).not.toHaveClass(/\bon\b/);
    await expect(chip(page, 'alerts-days', 'sun')).toHaveClass(/\bon\b/);

    // Cancel goes back untouched; Delete asks first.
    await page.getByTestId('alerts-field-windMin').fill('3');
    await page.getByTestId('alerts-cancel').click();
    await expect(page).toHaveURL(atPath('/alerts'));
    expect((await storedAlerts(request, user))[0].value.conditions).toEqual(saved.value.conditions);
    await page.getByTestId('alert-edit').click();
    await page.getByTestId('alerts-delete').click();
    await expect(page.getByTestId('alerts-delete-confirm')).toContainText('Kite spot');
    await page.getByTestId('alerts-delete-no').click();
    await expect(page.getByTestId('alerts-delete-confirm')).toHaveCount(0);
    await page.getByTestId('alerts-delete').click();
    await page.getByTestId('alerts-delete-yes').click();
    await expect(page).toHaveURL(atPath('/alerts'));
    await expect(page.getByTestId('alerts-empty')).toHaveText(/No alerts yet/);
    expect(await storedAlerts(request, user)).toEqual([]);
    await page.context().close();
  });
}

test('an unknown id says "Alert not found"', async ({ browser, request }) => {
  const user = await registerUser(request);
  const page = await newPage(browser);
  await page.goto('/login');
  await login(page, user);
  await page.goto('/alerts-edit/noSuchAlert123');
  await expect(page.getByTestId('alerts-not-found')).toContainText('Alert not found');
  await page.getByTestId('alerts-back').click();
  await expect(page).toHaveURL(atPath('/alerts'));
  await page.context().close();
});

test('logged out, the editor asks for a login and opens after it', async ({ browser, request }) => {
  const user = await registerUser(request);
  const id = await createAlert(request, user, 'Bora at Piran');
  const page = await newPage(browser);
  await page.goto(`/alerts-edit/${id}`);
  await login(page, user);
  await expect(page).toHaveURL(atPath(`/alerts-edit/${id}`));
  await expect(editor(page)).toHaveClass(/open/);
  await expect(page.getByTestId('alerts-name')).toHaveValue('Bora at Piran');
  await expect(page.getByTestId('alerts-field-windMin')).toHaveValue('8');
  await expect(chip(page, 'alerts-wind-dirs', 'NE')).toHaveClass(/\bon\b/);
  await expect(chip(page, 'alerts-wind-dirs', 'E')).toHaveClass(/\bon\b/);
  await expect(chip(page, 'alerts-wind-dirs', 'N')).not.toHaveClass(/\bon\b/);
  await expect(page.getByTestId('alerts-place')).toContainText('45.50, 13.60, forecast gfs');
  await page.context().close();
});

test('new notifications show on the menu button until the alerts window opens', async ({ browser, request }) => {
  const user = await registerUser(request);
  await createAlert(request, user, 'Badge test');
  await sendTestNotifications(request, user, 1);
  const page = await newPage(browser, 360, 740);
  await page.goto('/login');
  await login(page, user);
  // SPEC §4: with alerts, polling starts at the first change of the list (here its sync at login).
  const badge = page.getByTestId('menu-badge');
  await expect(badge).toHaveText('1');
  const menu = page.getByTestId('menu-button');
  await expect(menu).toHaveAccessibleName('Menu');
  await expect(menu).toHaveAccessibleDescription('1 new notification');
  await page.screenshot({ path: 'test-results/menu-badge-360x740.png', animations: 'disabled' });

  // Above 99: "99+"; after a reload too (the list read at start is a change). 100 in all: the
  // most a user keeps (NOTIFICATIONS_PER_USER_MAX, server/auth/limits.ts).
  await sendTestNotifications(request, user, 99);
  await page.reload();
  await expect(badge).toHaveText('99+');
  await expect(menu).toHaveAccessibleDescription('100 new notifications');
  await menu.click();
  await expect(page.locator('[data-menu="alerts"]')).toContainText('99+');
  await page.screenshot({ path: 'test-results/menu-badge-99-360x740.png', animations: 'disabled' });
  await page.locator('[data-menu="alerts"]').click();

  // Opening the alerts window marks them opened: the badge goes, the window says how many were new.
  await expect(page.getByTestId('alerts-new-count')).toHaveText('100 new notifications');
  await expect(badge).toHaveCount(0);
  const answer = await request.get('/notif/v1/notifications', { headers: auth(user) });
  expect((await answer.json() as { newCount: number }).newCount).toBe(0);
  await page.context().close();
});
