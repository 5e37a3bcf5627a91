import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_UPLOAD_DEBOUNCE_MS } from '../../common/account.ts';
import { settingDef, settingKeys } from '../../common/settings.ts';
import { createSettingsStore, type SettingsStore } from '../state/settingsStore.ts';
import { memoryAccountStore } from './accountStore.ts';
import { createAccountRequest } from './request.ts';
import { createSettingsCloud } from './settingsCloud.ts';
import { createFakeCloud, type FakeCloud } from './testing.ts';

const SYNC_KEYS = settingKeys().filter((k) => settingDef(k).storage === 'sync');
const T0 = Date.UTC(2026, 0, 1);

function browser(cloud: FakeCloud, token: string, settings: SettingsStore = createSettingsStore({ now: () => Date.now(), logError: () => {} })) {
  const logError = vi.fn();
  const store = memoryAccountStore();
  const sync = createSettingsCloud({
    settings, request: createAccountRequest({ token: () => token, fetch: cloud.fetch, onNetworkFailure: () => {} }), store, keys: SYNC_KEYS, logError,
  });
  return { settings, sync, store, logError };
}

describe('settings sync (SPEC §4 "Settings sync", §9 debounce 2 s)', () => {
  let cloud: FakeCloud;
  let token: string;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    cloud = createFakeCloud(() => Date.now());
    token = cloud.addUser('anna@example.com', 'Abcdefg1');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uploads a local change 2 s after the last one, once, as a version 4 blob', async () => {
    const { settings, sync } = browser(cloud, token);
    await sync.start();
    const posts = () => cloud.requests('POST', '/users/settings');
    expect(posts()).toHaveLength(0);
    settings.set('isolinesOn', true);
    await vi.advanceTimersByTimeAsync(1500);
    settings.set('particlesAnim', 'intensive');
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS - 1);
    expect(posts()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts()).toHaveLength(1);
    const blob = posts()[0].body as { version: number; data: Record<string, { value: unknown; ts: number }>; storeTs: number };
    expect(blob.version).toBe(4);
    expect(blob.data.isolinesOn).toEqual({ value: true, ts: T0 });
    expect(blob.data.particlesAnim).toEqual({ value: 'intensive', ts: T0 + 1500 });
    expect(typeof blob.storeTs).toBe('number');
    expect(posts()[0].auth).toBe(`Bearer ${token}`);
  });

  it('local keys are not uploaded (only sync keys)', async () => {
    const { settings, sync } = browser(cloud, token);
    await sync.start();
    settings.set('detail1h', true);
    settings.set('isolinesOn', true);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    const blob = cloud.requests('POST', '/users/settings')[0].body as { data: Record<string, unknown> };
    expect(Object.keys(blob.data)).toEqual(['isolinesOn']);
  });

  it('newer cloud stamps win, older ones lose, a null value removes', async () => {
    const user = cloud.userOf(token);
    user.settings = {
      storeTs: T0 + 50,
      data: {
        isolinesType: { value: 'temp', ts: T0 + 10 }, // newer than local: wins
        particlesAnim: { value: 'off', ts: T0 - 10 }, // older than local: loses
        graticule: { value: null, ts: T0 + 20 }, // removes
      },
    };
    const { settings, sync } = browser(cloud, token);
    vi.setSystemTime(T0);
    settings.set('isolinesType', 'gh');
    settings.set('particlesAnim', 'intensive');
    settings.set('graticule', true);
    await sync.start();
    expect(settings.get('isolinesType')).toBe('temp');
    expect(settings.get('particlesAnim')).toBe('intensive');
    expect(settings.get('graticule')).toBe(false);
    expect(settings.ts('graticule')).toBe(0);
    // The local change the cloud lacks goes up at once.
    const posts = cloud.requests('POST', '/users/settings');
    expect(posts).toHaveLength(1);
    expect(cloud.userOf(token).settings!.data.particlesAnim).toEqual({ value: 'intensive', ts: T0 });
  });

  it('304 (and 204) mean no change', async () => {
    const { settings, sync } = browser(cloud, token);
    const merge = vi.spyOn(settings, 'merge');
    await sync.start(); // 304: the user has no blob yet (stamp 0)
    expect(merge).not.toHaveBeenCalled();
    settings.set('isolinesOn', true);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    await sync.pull(); // the full blob once (it changed after storeTs 0) ...
    expect(merge).toHaveBeenCalledTimes(1);
    await sync.pull(); // ... then 304
    expect(merge).toHaveBeenCalledTimes(1);
    const gets = cloud.requests('GET', '/users/settings');
    expect(gets.at(-1)!.path).toMatch(/\?storeTs=\d+$/);
    expect(Number(gets.at(-1)!.path.split('=')[1])).toBeGreaterThan(0);
  });

  it('204 means no change too', async () => {
    const { settings } = browser(cloud, token);
    const merge = vi.spyOn(settings, 'merge');
    const sync = createSettingsCloud({
      settings, store: memoryAccountStore(), keys: SYNC_KEYS,
      request: createAccountRequest({ token: () => token, fetch: async () => new Response(null, { status: 204 }) }),
    });
    await sync.start();
    expect(merge).not.toHaveBeenCalled();
    sync.stop();
  });

  it('what the cloud brings is not uploaded back', async () => {
    cloud.userOf(token).settings = { storeTs: T0, data: { isolinesOn: { value: true, ts: T0 - 5 } } };
    const { settings, sync } = browser(cloud, token);
    await sync.start();
    expect(settings.get('isolinesOn')).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * SETTINGS_UPLOAD_DEBOUNCE_MS);
    expect(cloud.requests('POST', '/users/settings')).toHaveLength(0);
  });

  it('a setting put back to its default here is sent as null, and removed in the other browser', async () => {
    const a = browser(cloud, token);
    const b = browser(cloud, token);
    await a.sync.start();
    a.settings.set('graticule', true);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    await b.sync.start();
    expect(b.settings.get('graticule')).toBe(true);
    vi.setSystemTime(T0 + 60_000);
    a.settings.reset('graticule');
    await a.sync.pull(); // a pull notices the removal too
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    expect(cloud.userOf(token).settings!.data.graticule.value).toBeNull();
    await b.sync.pull();
    expect(b.settings.get('graticule')).toBe(false);
  });

  it('two browsers converge on the newest change of each key', async () => {
    const a = browser(cloud, token);
    const b = browser(cloud, token);
    await a.sync.start();
    await b.sync.start();
    a.settings.set('isolinesType', 'temp');
    vi.setSystemTime(T0 + 100);
    b.settings.set('isolinesType', 'deg0'); // the newer one
    b.settings.set('zuluMode', true);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    await a.sync.pull();
    await b.sync.pull();
    for (const s of [a.settings, b.settings]) {
      expect(s.get('isolinesType')).toBe('deg0');
      expect(s.get('zuluMode')).toBe(true);
    }
  });

  it('a failed upload is logged with its status and goes up on flush', async () => {
    const { settings, sync, logError } = browser(cloud, token);
    await sync.start();
    cloud.offline = true;
    settings.set('isolinesOn', true);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    expect(logError).toHaveBeenCalledWith('Settings sync failed: upload, status 0');
    expect(sync.pending()).toBe(true);
    cloud.offline = false;
    await sync.flush();
    expect(cloud.userOf(token).settings!.data.isolinesOn.value).toBe(true);
    expect(sync.pending()).toBe(false);
  });

  it('flush uploads at once what waits for the debounce (logout: save settings)', async () => {
    const { settings, sync } = browser(cloud, token);
    await sync.start();
    settings.set('numDirection', true);
    await sync.flush();
    expect(cloud.requests('POST', '/users/settings')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    expect(cloud.requests('POST', '/users/settings')).toHaveLength(1);
  });

  it('the bookkeeping survives a reload: nothing is uploaded again, 304 from the first pull', async () => {
    const first = browser(cloud, token);
    await first.sync.start();
    first.settings.set('isolinesOn', true);
    await vi.advanceTimersByTimeAsync(SETTINGS_UPLOAD_DEBOUNCE_MS);
    await first.sync.pull();
    first.sync.stop();
    const posts = cloud.requests('POST', '/users/settings').length;
    // The same browser after a reload: same settings and account store.
    const again = createSettingsCloud({
      settings: first.settings, request: createAccountRequest({ token: () => token, fetch: cloud.fetch }), store: first.store, keys: SYNC_KEYS,
    });
    const merge = vi.spyOn(first.settings, 'merge');
    await again.start();
    expect(merge).not.toHaveBeenCalled();
    expect(cloud.requests('POST', '/users/settings')).toHaveLength(posts);
  });

  it('stop() ends the watching', async () => {
    const { settings, sync } = browser(cloud, token);
    await sync.start();
    sync.stop();
    settings.set('isolinesOn', true);
    await vi.advanceTimersByTimeAsync(10 * SETTINGS_UPLOAD_DEBOUNCE_MS);
    expect(cloud.requests('POST', '/users/settings')).toHaveLength(0);
  });
});
