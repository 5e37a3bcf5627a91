import { describe, expect, it, vi } from 'vitest';
import { SETTINGS, settingDef, settingKeys, UnknownSettingError } from '../../common/settings.ts';
import { createSettingsStore, memoryBackend } from './settingsStore.ts';

const quiet = () => createSettingsStore({ now: () => 1000, logError: vi.fn() });

describe('settings store (SPEC §3, §5)', () => {
  it('starts every key at its default', () => {
    const store = quiet();
    for (const key of settingKeys()) expect(store.get(key)).toEqual(settingDef(key).default);
    expect(store.get('overlay')).toBe('wind');
    expect(store.get('product')).toBe('ecmwf');
    expect(store.get('pickerMobileTimeout')).toBe(6);
    expect(store.get('favPois')).toBe('cams');
  });

  it('every default passes its own check', () => {
    for (const key of settingKeys()) expect(settingDef(key).check(settingDef(key).default), key).toBe(true);
  });

  it.each<[string, unknown, boolean]>([
    ['overlay', 'temp', true], ['overlay', 'nonsense', false],
    ['level', '850h', true], ['level', '851h', false],
    ['isolinesType', 'deg0', true], ['isolinesType', 'wind', false],
    ['particlesAnim', 'intensive', true], ['particlesAnim', 'fast', false],
    ['particles', { multiplier: 2, velocity: 0, width: 1, blending: 1.5, opacity: 0.3 }, true],
    ['particles', { multiplier: 2.1, velocity: 0, width: 1, blending: 1.5, opacity: 0.3 }, false],
    ['particles', { multiplier: 1, velocity: 1, width: 1, blending: 1 }, false],
    ['lang', 'auto', true], ['lang', 'zh-TW', true], ['lang', 'xx', false],
    ['hourFormat', '12h', true], ['hourFormat', '13h', false],
    ['defaultUnits', 'imperial', true], ['defaultUnits', 'nautical', false],
    ['startUpZoom', null, true], ['startUpZoom', 3, true], ['startUpZoom', 11, true], ['startUpZoom', 12, false], ['startUpZoom', 2, false], ['startUpZoom', 5.5, false],
    ['startUpLastPosition', { lat: 50, lon: 14, zoom: 5, source: 'maps' }, true],
    ['startUpLastPosition', { lat: 50, lon: 14, zoom: 5.5, source: 'maps' }, false],
    ['startUpLastPosition', { lat: 50, lon: 14, zoom: 5, source: 'leaflet' }, false],
    ['startUpLastStep', 3, true], ['startUpLastStep', 2, false],
    ['homeLocation', { lat: 1, lon: 2 }, true], ['homeLocation', { lat: '1', lon: 2 }, false],
    ['email', 'a@b', true], ['email', 'a b@c', false], ['email', 'ab', false],
    ['country', 'cz', true], ['country', 'c1', true], ['country', '1c', false], ['country', 'cze', false],
    ['pickerMobileTimeout', 'always', true], ['pickerMobileTimeout', 5, false],
    ['favOverlaysDesktop', ['wind', 'temp'], true],
    ['favOverlaysDesktop', ['wind', 'temp', 'rain', 'clouds', 'gust', 'pressure', 'cape', 'rh'], false],
    ['favOverlaysDesktop', ['wind', 'wind'], false],
    ['metric_temp', '°F', true], ['metric_temp', 'mph', false], ['metric_wind', 'bft', true],
  ])('%s = %j is %s', (key, value, allowed) => {
    const store = quiet();
    expect(store.set(key as never, value as never)).toBe(allowed);
    expect(store.get(key as never)).toEqual(allowed ? value : settingDef(key).default);
  });

  it('an unknown key throws', () => {
    const store = quiet();
    expect(() => store.get('nope' as never)).toThrow(UnknownSettingError);
    expect(() => store.set('metric_nope' as never, 'x' as never)).toThrow(UnknownSettingError);
  });

  it('loads stored values, and an invalid stored value falls back to the default with an error logged', async () => {
    const logError = vi.fn();
    const store = createSettingsStore({ now: () => 5, logError });
    await store.load(memoryBackend({
      overlay: { value: 'temp', ts: 1 },
      level: { value: 'upside-down', ts: 2 },
      gone: { value: 1, ts: 3 },
    }));
    expect(store.get('overlay')).toBe('temp');
    expect(store.get('level')).toBe('surface');
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('level'));
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('gone'));
    expect(store.ready.value).toBe(true);
  });

  it('saves local and sync keys with their update time, never memory ones', async () => {
    let t = 100;
    const backend = memoryBackend();
    const store = createSettingsStore({ now: () => t, logError: vi.fn() });
    await store.load(backend);
    store.set('overlay', 'rain');
    t = 200;
    store.set('hourFormat', '24h');
    store.set('timestamp', 123);
    await Promise.resolve();
    expect(backend.data.overlay).toEqual({ value: 'rain', ts: 100 });
    expect(backend.data.hourFormat).toEqual({ value: '24h', ts: 200 });
    expect(backend.data.timestamp).toBeUndefined();
    expect(SETTINGS.timestamp.storage).toBe('memory');
    expect(store.syncable()).toEqual({ hourFormat: { value: '24h', ts: 200 } });
  });

  it('values set before loading win over stored ones and are saved', async () => {
    const backend = memoryBackend({ overlay: { value: 'temp', ts: 1 } });
    const store = createSettingsStore({ now: () => 50, logError: vi.fn() });
    store.set('overlay', 'gust');
    await store.load(backend);
    expect(store.get('overlay')).toBe('gust');
    expect(backend.data.overlay).toEqual({ value: 'gust', ts: 50 });
  });

  it('merges cloud entries: newer stamps win, a null value removes, local-only keys are not synced', async () => {
    const store = createSettingsStore({ now: () => 100, logError: vi.fn() });
    store.set('hourFormat', '12h');
    store.set('graticule', true);
    const changed = store.merge({
      hourFormat: { value: '24h', ts: 50 },
      graticule: { value: null, ts: 150 },
      isolinesType: { value: 'temp', ts: 10 },
      overlay: { value: 'temp', ts: 999 },
      mystery: { value: 1, ts: 999 },
    });
    expect(changed.sort()).toEqual(['graticule', 'isolinesType']);
    expect(store.get('hourFormat')).toBe('12h');
    expect(store.get('graticule')).toBe(false);
    expect(store.get('isolinesType')).toBe('temp');
    expect(store.get('overlay')).toBe('wind');
  });

  it('stays in memory when the backend cannot be read', async () => {
    const logError = vi.fn();
    const store = createSettingsStore({ logError });
    await store.load({ persistent: true, load: () => Promise.reject(new Error('blocked')), save: async () => {}, remove: async () => {} });
    expect(store.persistent.value).toBe(false);
    expect(store.ready.value).toBe(true);
    expect(store.set('overlay', 'temp')).toBe(true);
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('memory'));
  });
});
