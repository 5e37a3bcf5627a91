import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_SUCCESS_MESSAGE_MS, LOGOUT_RELOAD_DELAY_MS, PENDING_LOGIN_ACTION_MAX_AGE_MS, type PendingLoginAction } from '../../common/account.ts';
import { validateFavourite, type Favourite } from '../../common/favourites.ts';
import { settingDef, settingKeys } from '../../common/settings.ts';
import { createSettingsStore } from '../state/settingsStore.ts';
import { ACCOUNT_KEYS, memoryAccountStore } from './accountStore.ts';
import { createSyncedCollection } from './collection.ts';
import { createFavourites } from './favourites.ts';
import { createAccountRequest } from './request.ts';
import { createSession } from './session.ts';
import { createSettingsCloud } from './settingsCloud.ts';
import { createFakeCloud, type FakeCloud } from './testing.ts';

const T0 = Date.UTC(2026, 0, 1);
const PASSWORD = 'Abcdefg1';

function browser(cloud: FakeCloud, { store = memoryAccountStore(), settings = createSettingsStore({ now: () => Date.now(), logError: () => {} }) } = {}) {
  const steps: string[] = [];
  const request = createAccountRequest({ token: () => settings.get('userToken') as string | null, fetch: cloud.fetch, onNetworkFailure: () => {} });
  const collection = createSyncedCollection<Favourite>({ name: 'favs', request, store, validate: (v) => validateFavourite(v, () => {}) });
  const favourites = createFavourites({ collection, onError: () => steps.push('favs error') });
  const settingsCloud = createSettingsCloud({
    settings, request, store, keys: settingKeys().filter((k) => settingDef(k).storage === 'sync'), logError: () => {},
  });
  const start = settingsCloud.start.bind(settingsCloud);
  settingsCloud.start = async () => {
    steps.push('settings merged');
    await start();
  };
  const runPendingAction = vi.fn(async (pending: PendingLoginAction) => {
    steps.push(`pending ${pending.action}`);
    if (pending.action === 'addFav') await favourites.add(pending.params as unknown as Favourite);
  });
  const usage = { log: vi.fn((name: string) => steps.push(`usage ${name}`)) };
  const showMessage = vi.fn();
  const reload = vi.fn();
  const openLogin = vi.fn();
  const session = createSession({
    settings: settings as never,
    request,
    store,
    settingsCloud,
    collections: [collection],
    runPendingAction,
    checkConsent: () => steps.push('consent checked'),
    openLogin,
    usage,
    showMessage,
    device: () => ({ platform: 'desktop', target: 'web', version: '0.1.0', cc: 'cz', subscription: null, screen: { width: 1920, height: 1080, devicePixelRatio: 2 } }),
    reload,
    logError: () => {},
  });
  return { session, settings, store, favourites, collection, settingsCloud, steps, runPendingAction, usage, showMessage, reload, openLogin };
}

describe('session (SPEC §4 "Login", "Logout")', () => {
  let cloud: FakeCloud;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    cloud = createFakeCloud(() => Date.now());
    cloud.addUser('anna@example.com', PASSWORD);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('login: token stored, user set, settings merged, consent checked, device registered, user-logged, success message 3 s', async () => {
    const b = browser(cloud);
    await b.session.login(' anna@example.com ', PASSWORD);
    expect(b.session.loggedIn.value).toBe(true);
    expect(b.session.user.value).toMatchObject({ email: 'anna@example.com' });
    expect(b.settings.get('userToken')).toMatch(/^t/);
    expect(b.settings.get('user')).toMatchObject({ email: 'anna@example.com' });
    expect(b.settings.get('authHash')).toMatch(/^h-/);
    expect(b.steps).toEqual(['settings merged', 'consent checked', 'usage user-logged']);
    expect(cloud.requests('GET', '/api/info')[0].auth).toBe(`Bearer ${b.settings.get('userToken')}`);
    const [device] = cloud.requests('PUT', '/users/v3/devices/');
    expect(device.body).toMatchObject({ platform: 'desktop', deactivated: false, screen: { devicePixelRatio: 2 } });
    const deviceId = await b.store.get<string>(ACCOUNT_KEYS.deviceId);
    expect(device.path).toBe(`/users/v3/devices/${deviceId}`);
    expect(deviceId).toMatch(/^[0-9a-f]{32}$/);
    expect(b.showMessage).toHaveBeenCalledWith(expect.objectContaining({ key: 'register:loginSuccess', durationMs: LOGIN_SUCCESS_MESSAGE_MS }));
    expect(LOGIN_SUCCESS_MESSAGE_MS).toBe(3000);
  });

  it('a wrong password throws and nobody is logged in', async () => {
    const b = browser(cloud);
    await expect(b.session.login('anna@example.com', 'Wrong1234')).rejects.toMatchObject({ status: 401 });
    expect(b.session.loggedIn.value).toBe(false);
    expect(b.settings.get('userToken')).toBeNull();
  });

  it('register logs the new user in', async () => {
    const b = browser(cloud);
    await b.session.register({ email: 'ben@example.com', password: PASSWORD, passwordConfirm: PASSWORD });
    expect(b.session.user.value).toMatchObject({ email: 'ben@example.com' });
    expect(cloud.requests('POST', '/users/v1/register')[0].body).toMatchObject({ email: 'ben@example.com', passwordConfirm: PASSWORD });
  });

  it('the device id is random once, then kept', async () => {
    const b = browser(cloud);
    await b.session.login('anna@example.com', PASSWORD);
    const c = browser(cloud, { store: b.store });
    c.settings.set('userToken', b.settings.get('userToken'));
    await c.session.start();
    const paths = cloud.requests('PUT', '/users/v3/devices/').map((r) => r.path);
    expect(paths).toHaveLength(2);
    expect(paths[0]).toBe(paths[1]);
    const other = browser(cloud);
    await other.session.login('anna@example.com', PASSWORD);
    expect(cloud.requests('PUT', '/users/v3/devices/').at(-1)!.path).not.toBe(paths[0]);
  });

  describe('pending action (SPEC §4, §9: 5 min)', () => {
    const home = { type: 'fav', title: 'Home', lat: 50.08, lon: 14.42 };

    it('adding a favourite logged out stores the action and opens login', async () => {
      const b = browser(cloud);
      expect(await b.session.requireLogin('addFav', home)).toBe(false);
      expect(b.openLogin).toHaveBeenCalledTimes(1);
      expect(await b.store.get(ACCOUNT_KEYS.pendingAction)).toEqual({ action: 'addFav', params: home, ts: T0 });
    });

    it('runs after login when under 5 min old (instead of the consent check), once', async () => {
      const b = browser(cloud);
      await b.session.requireLogin('addFav', home);
      vi.setSystemTime(T0 + PENDING_LOGIN_ACTION_MAX_AGE_MS - 1000);
      await b.session.login('anna@example.com', PASSWORD);
      expect(b.steps).toEqual(['settings merged', 'pending addFav', 'usage user-logged']);
      expect(b.favourites.list.value).toEqual([expect.objectContaining({ title: 'Home' })]);
      expect(await b.store.get(ACCOUNT_KEYS.pendingAction)).toBeUndefined();
    });

    it('is dropped when 5 min old or more', async () => {
      const b = browser(cloud);
      await b.session.requireLogin('addFav', home);
      vi.setSystemTime(T0 + PENDING_LOGIN_ACTION_MAX_AGE_MS);
      await b.session.login('anna@example.com', PASSWORD);
      expect(b.runPendingAction).not.toHaveBeenCalled();
      expect(b.steps).toContain('consent checked');
      expect(await b.store.get(ACCOUNT_KEYS.pendingAction)).toBeUndefined();
    });

    it('logged in: nothing is stored, the caller goes on', async () => {
      const b = browser(cloud);
      await b.session.login('anna@example.com', PASSWORD);
      expect(await b.session.requireLogin('addFav', home)).toBe(true);
      expect(b.openLogin).not.toHaveBeenCalled();
      expect(await b.store.get(ACCOUNT_KEYS.pendingAction)).toBeUndefined();
    });
  });

  describe('start-up with a stored token', () => {
    it('valid: user info set from /api/info, favourites synced, no success message', async () => {
      const token = cloud.addUser('carl@example.com', PASSWORD);
      cloud.userOf(token).collections.set('favs', { changedAt: 5, items: [{ id: 'a', value: { type: 'fav', title: 'Cabin', lat: 1, lon: 2 }, updated: 5 }] });
      const b = browser(cloud);
      b.settings.set('userToken', token);
      await b.session.start();
      expect(b.session.user.value).toMatchObject({ email: 'carl@example.com' });
      expect(b.favourites.list.value.map((f) => f.title)).toEqual(['Cabin']);
      expect(b.usage.log).toHaveBeenCalledWith('user-logged', 'start');
      expect(b.showMessage).not.toHaveBeenCalled();
    });

    it('invalid (SPEC §4 "Without auth: user removed, logged out")', async () => {
      const b = browser(cloud);
      b.settings.set('userToken', 'revoked');
      b.settings.set('user', { id: 'u9', email: 'old@example.com' });
      const again = browser(cloud, { settings: b.settings });
      expect(again.session.loggedIn.value).toBe(true);
      await again.session.start();
      expect(again.session.loggedIn.value).toBe(false);
      expect(b.settings.get('userToken')).toBeNull();
      expect(b.settings.get('user')).toBeNull();
      expect(cloud.requests('GET', '/users/settings')).toHaveLength(0);
    });

    it('no answer: the stored user stays and "Failed to retrieve account info." shows', async () => {
      const b = browser(cloud);
      b.settings.set('userToken', 'whatever');
      b.settings.set('user', { id: 'u9', email: 'old@example.com' });
      cloud.offline = true;
      const again = browser(cloud, { settings: b.settings });
      await again.session.start();
      expect(again.session.loggedIn.value).toBe(true);
      expect(again.showMessage).toHaveBeenCalledWith(expect.objectContaining({ key: 'register:accountInfoError', durationMs: 5000 }));
    });

    it('no token: nothing is asked', async () => {
      const b = browser(cloud);
      await b.session.start();
      expect(cloud.log).toHaveLength(0);
    });
  });

  it('logout: settings saved, device deactivated, logout called, everything cleared, reload after 500 ms', async () => {
    const b = browser(cloud);
    await b.session.login('anna@example.com', PASSWORD);
    const token = b.settings.get('userToken') as string;
    await b.favourites.add({ type: 'fav', title: 'Home', lat: 1, lon: 2 });
    b.settings.set('consent', { version: '2023/11', timestamp: T0, analytics: true, explicit: true });
    b.settings.set('isolinesOn', true); // waits for the 2 s debounce
    await b.store.put('searchRecents2', [{ name: 'x' }]);
    const deviceId = await b.store.get<string>(ACCOUNT_KEYS.deviceId);
    const user = cloud.userOf(token);

    await b.session.logout();
    expect(user.settings!.data.isolinesOn.value).toBe(true);
    expect(cloud.requests('PUT', '/users/v3/devices/').at(-1)!.body).toMatchObject({ deactivated: true });
    expect(cloud.requests('GET', '/api/logout')).toHaveLength(1);
    expect(cloud.tokens.has(token)).toBe(false);
    expect(b.session.loggedIn.value).toBe(false);
    expect(b.settings.get('user')).toBeNull();
    expect(b.settings.get('userToken')).toBeNull();
    expect(b.settings.get('authHash')).toBeNull();
    expect(b.settings.get('consent')).toBeNull();
    expect(b.favourites.list.value).toEqual([]);
    expect(await b.store.get('userFavs')).toBeUndefined();
    expect(await b.store.get('searchRecents2')).toBeUndefined();
    expect(await b.store.get(ACCOUNT_KEYS.deviceId)).toBe(deviceId);
    expect(b.usage.log).toHaveBeenCalledWith('user-logout');
    await vi.advanceTimersByTimeAsync(LOGOUT_RELOAD_DELAY_MS - 1);
    expect(b.reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(b.reload).toHaveBeenCalledTimes(1);
    // Settings changed after logout are not uploaded.
    const posts = cloud.requests('POST', '/users/settings').length;
    b.settings.set('zuluMode', true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(cloud.requests('POST', '/users/settings')).toHaveLength(posts);
  });

  it('logout offline still clears this browser', async () => {
    const b = browser(cloud);
    await b.session.login('anna@example.com', PASSWORD);
    cloud.offline = true;
    await b.session.logout();
    expect(b.session.loggedIn.value).toBe(false);
    expect(b.settings.get('userToken')).toBeNull();
    await vi.advanceTimersByTimeAsync(LOGOUT_RELOAD_DELAY_MS);
    expect(b.reload).toHaveBeenCalled();
  });

  it('two browsers of one user converge on favourites', async () => {
    const a = browser(cloud);
    const b = browser(cloud);
    await a.session.login('anna@example.com', PASSWORD);
    await a.favourites.add({ type: 'fav', title: 'Home', lat: 1, lon: 2 });
    await b.session.login('anna@example.com', PASSWORD);
    expect(b.favourites.list.value.map((f) => f.title)).toEqual(['Home']);
    await b.favourites.add({ type: 'fav', title: 'Work', lat: 3, lon: 4 });
    await a.session.refresh();
    expect(a.favourites.list.value.map((f) => f.title)).toEqual(['Home', 'Work']);
  });
});
