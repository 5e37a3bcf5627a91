/**
 * Accounts in the browser (issue 5 items 2-4) against the real server (server/routes/users.ts):
 * register, the login form's SPEC §5 texts, a favourite added from the forecast window, the same
 * favourite (and a synced setting) in a second browser of the same user after login there, a
 * favourite added while logged out (the pending action runs after login), and logout clearing the
 * browser. Screenshots of the login window at the two SCREENS of tests/testing.ts go to
 * test-results/.
 */

import { expect, type Browser, type Page } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import { openMap, SCREENS } from './testing.ts';

/** en-US: a region that needs no cookie consent, so no consent window covers the forms. */
test.use({ locale: 'en-US' });

const PASSWORD = 'Cumulus42';
const PLACE = { lat: 50.08, lon: 14.42, path: '/50.080/14.420' };

type IsobarWindow = {
  isobar: {
    app: { settings: { get(key: string): unknown; set(key: string, value: unknown): boolean } };
    account?: { settingsCloud: { flush(): Promise<void> } };
  };
};

const uniqueEmail = (what: string) => `${what}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function newPage(browser: Browser): Promise<Page> {
  const context = await newContext(browser, { locale: 'en-US', timezoneId: 'UTC' });
  return context.newPage();
}

/** The place's favourites as this browser keeps them in IndexedDB (SPEC §3 "Stored collections": userFavs). */
async function storedFavs(page: Page): Promise<unknown[] | null> {
  return page.evaluate(() => new Promise<unknown[] | null>((resolve, reject) => {
    const open = indexedDB.open('isobar');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const get = db.transaction('collections').objectStore('collections').get('userFavs');
      get.onsuccess = () => {
        db.close();
        resolve((get.result as { items: unknown[] } | undefined)?.items ?? null);
      };
      get.onerror = () => reject(get.error);
    };
  }));
}

async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByTestId('auth-login');
  await expect(form).toBeVisible();
  await form.getByTestId('auth-email').fill(email);
  await form.getByTestId('auth-password').fill(password);
  await form.getByTestId('auth-submit').click();
}

async function expectLoggedIn(page: Page): Promise<void> {
  await expect(page.locator('[data-testid="top-message"][data-message="loginSuccess"]')).toHaveText('You are logged in');
  await expect(page.getByTestId('account-button')).toHaveAttribute('data-logged-in', 'true');
}

test.describe('accounts', () => {
  test('the login form checks its fields with the texts of SPEC §5; screenshots', async ({ browser }) => {
    for (const { width, height, deviceScaleFactor } of SCREENS) {
      const context = await newContext(browser, { viewport: { width, height }, deviceScaleFactor, locale: 'en-US', timezoneId: 'UTC' });
      const page = await context.newPage();
      await openMap(page, '/login');
      const form = page.getByTestId('auth-login');
      await expect(form).toBeVisible();
      await expect(page.locator('section.window-login')).toHaveClass(/open/);
      await page.screenshot({ path: `test-results/login-${width}x${height}.png`, animations: 'disabled' });
      await form.getByTestId('auth-submit').click();
      await expect(form.getByTestId('field-error')).toHaveText(["This field can't be empty", "Password can't be empty"]);
      await form.getByTestId('auth-email').fill('not-an-address');
      await expect(form.getByTestId('field-error').first()).toHaveText("This doesn't look like an email address");
      await page.screenshot({ path: `test-results/login-errors-${width}x${height}.png`, animations: 'disabled' });
      // Closed: the map with the top bar's login button.
      await page.getByTestId('panel-close').click();
      await expect(page.locator('section.window-login')).toHaveCount(0);
      await expect(page).toHaveURL(/:\d+\/(\?.*)?$/);
      await expect(page.getByTestId('account-button')).toBeVisible();
      await page.screenshot({ path: `test-results/account-button-${width}x${height}.png`, clip: { x: 0, y: 0, width, height: 120 } });
      await context.close();
    }
  });

  test('the register form: password rules and confirmation (SPEC §5)', async ({ page }) => {
    await page.goto('/register');
    const form = page.getByTestId('auth-register');
    await expect(form).toBeVisible();
    await form.getByTestId('auth-email').fill(uniqueEmail('rules'));
    const cases: [string, string, string][] = [
      ['short1A', 'short1A', 'Password is too short'],
      ['nodigitsHere', 'nodigitsHere', 'Password is missing a digit (0-9)'],
      ['lowercase1', 'lowercase1', 'Password is missing an uppercase letter (A-Z)'],
      ['UPPERCASE1', 'UPPERCASE1', 'Password is missing a lowercase letter (a-z)'],
    ];
    await form.getByTestId('auth-submit').click();
    for (const [password, confirm, text] of cases) {
      await form.getByTestId('auth-password').fill(password);
      await form.getByTestId('auth-passwordConfirm').fill(confirm);
      await expect(form.getByTestId('field-error')).toHaveText([text]);
    }
    await form.getByTestId('auth-password').fill(PASSWORD);
    await form.getByTestId('auth-passwordConfirm').fill(`${PASSWORD}x`);
    await expect(form.getByTestId('field-error')).toHaveText(["Password and confirmation don't match"]);
    await page.screenshot({ path: 'test-results/register-errors-1280x720.png', animations: 'disabled' });
  });

  test('register, add a favourite; a second browser of the same user gets it after login; logout clears it', async ({ browser }) => {
    const email = uniqueEmail('journey');
    // ---- browser A: register, star a place, change a synced setting ----
    const a = await newPage(browser);
    await a.goto('/register');
    const form = a.getByTestId('auth-register');
    await form.getByTestId('auth-email').fill(email);
    await form.getByTestId('auth-password').fill(PASSWORD);
    await form.getByTestId('auth-passwordConfirm').fill(PASSWORD);
    await form.getByTestId('auth-submit').click();
    await expectLoggedIn(a);
    await expect(a.locator('section.window-register')).toHaveCount(0);

    await a.goto(PLACE.path);
    const star = a.getByTestId('detail-fav');
    // The place's name is in (the coordinates then show under it): the favourite takes it as its title.
    await expect(a.getByTestId('detail-coords')).toBeVisible();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    const title = (await a.getByTestId('detail-title').textContent())!;
    await a.evaluate(async () => {
      const w = window as unknown as IsobarWindow;
      w.isobar.app.settings.set('graticule', true);
      await w.isobar.account!.settingsCloud.flush();
    });
    await a.screenshot({ path: 'test-results/detail-fav-1280x720.png', animations: 'disabled' });
    await a.goto('/favs');
    await expect(a.getByTestId('fav-title')).toHaveText([title]);
    await a.screenshot({ path: 'test-results/favs-1280x720.png', animations: 'disabled' });

    // ---- browser B: the same user logs in and finds the favourite and the setting ----
    const b = await newPage(browser);
    await b.goto('/');
    await b.getByTestId('account-button').click();
    await fillLogin(b, email, PASSWORD);
    await expectLoggedIn(b);
    expect(await b.evaluate(() => (window as unknown as IsobarWindow).isobar.app.settings.get('graticule'))).toBe(true);
    await b.getByTestId('account-button').click();
    await expect(b.getByTestId('fav-title')).toHaveText([title]);
    // Renamed and pinned in B ...
    await b.getByTestId('fav-rename').click();
    await b.getByTestId('fav-rename-input').fill('Home');
    await b.getByTestId('fav-rename-save').click();
    await b.getByTestId('fav-pin').click();
    await expect(b.getByTestId('fav-pin')).toHaveAttribute('aria-pressed', 'true');
    await expect(b.getByTestId('fav-title')).toHaveText(['Home']);
    // ... and A sees it when its favourites open again.
    await a.goto('/favs');
    await expect(a.getByTestId('fav-title')).toHaveText(['Home']);
    await expect(a.getByTestId('fav-pin')).toHaveAttribute('aria-pressed', 'true');

    // ---- logout in B clears B, not the account ----
    expect(await storedFavs(b)).toHaveLength(1);
    await b.getByTestId('favs-logout').click();
    await b.waitForEvent('load');
    await expect(b.getByTestId('account-button')).not.toHaveAttribute('data-logged-in', 'true');
    expect(await storedFavs(b)).toBeNull();
    expect(await b.evaluate(() => (window as unknown as IsobarWindow).isobar.app.settings.get('userToken'))).toBeNull();
    await b.goto('/favs');
    await expect(b.getByTestId('favs-logged-out')).toBeVisible();
    await b.goto(PLACE.path);
    await expect(b.getByTestId('detail-fav')).toHaveAttribute('aria-pressed', 'false');
    // A still has it.
    await a.reload();
    await expect(a.getByTestId('fav-title')).toHaveText(['Home']);
    await a.context().close();
    await b.context().close();
  });

  test('a favourite added while logged out is added after login (SPEC §4 pending action)', async ({ browser, request }) => {
    const email = uniqueEmail('pending');
    const registered = await request.post('/users/v1/register', { data: { email, password: PASSWORD, passwordConfirm: PASSWORD } });
    expect(registered.ok()).toBe(true);
    const page = await newPage(browser);
    await page.goto(PLACE.path);
    const star = page.getByTestId('detail-fav');
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    // Login opens; the forecast stays (desktop: another pane).
    await fillLogin(page, email, PASSWORD);
    await expectLoggedIn(page);
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    expect(await storedFavs(page)).toHaveLength(1);
    await page.context().close();
  });

  test('on a phone the login takes the forecast\'s place; the forecast comes back with the favourite', async ({ browser, request }) => {
    const email = uniqueEmail('phone');
    expect((await request.post('/users/v1/register', { data: { email, password: PASSWORD } })).ok()).toBe(true);
    const context = await newContext(browser, { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    await page.goto(PLACE.path);
    await page.getByTestId('detail-fav').click();
    await expect(page.locator('.pane-fullscreen-mobile > section.window-login')).toBeVisible();
    await expect(page.locator('section.window-detail')).toHaveCount(0);
    await fillLogin(page, email, PASSWORD);
    await expect(page.getByTestId('detail-fav')).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(new RegExp(`${PLACE.path}`));
    await page.screenshot({ path: 'test-results/detail-fav-360x740.png', animations: 'disabled' });
    await context.close();
  });

  test('a wrong password is told in the form and nobody is logged in', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, uniqueEmail('nobody'), PASSWORD);
    await expect(page.getByTestId('auth-failure')).toHaveText('Wrong email or password.');
    await expect(page.getByTestId('account-button')).not.toHaveAttribute('data-logged-in', 'true');
  });
});
