import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportSettingsErrors } from './settingsErrors.ts';
import { createSettingsStore, indexedDbBackend, memoryBackend } from '../state/settingsStore.ts';

describe('settings store errors reach the error reporter (SPEC §5, §8)', () => {
  const removers: (() => void)[] = [];
  const take = (report: (msg: string) => void) => {
    removers.push(reportSettingsErrors(report));
  };
  afterEach(() => {
    removers.splice(0).forEach((remove) => remove());
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('an invalid stored value logged at boot is reported once the reporter loads, and later errors at once', async () => {
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => {});
    // Boot: the store loads before the reporter exists.
    const store = createSettingsStore({ now: () => 5 });
    await store.load(memoryBackend({ level: { value: 'upside-down', ts: 2 }, overlay: { value: 'temp', ts: 1 } }));
    expect(store.get('level')).toBe('surface');
    expect(console).toHaveBeenCalledWith(expect.stringContaining('Stored setting level: invalid value "upside-down", default used'));
    // The reporter loads: it gets what came before it ...
    const reports: string[] = [];
    take((msg) => reports.push(msg));
    expect(reports).toEqual([expect.stringContaining('Stored setting level: invalid value')]);
    // ... and what comes after, as it comes.
    expect(store.set('particlesAnim', 'sideways' as never)).toBe(false);
    expect(reports).toHaveLength(2);
    expect(reports[1]).toMatch(/particlesAnim.*refused/);
  });

  it('a local database that cannot be opened is reported, with its cause; settings stay in memory', async () => {
    vi.spyOn(globalThis.console, 'error').mockImplementation(() => {});
    vi.stubGlobal('indexedDB', { open: () => { throw new Error('The user denied permission to access the database'); } });
    const reports: string[] = [];
    take((msg) => reports.push(msg));
    expect(await indexedDbBackend()).toBeNull();
    expect(reports).toEqual(['Local database cannot be opened; settings stay in memory: Error: The user denied permission to access the database']);
  });

  it('keeps at most 50 errors for a reporter that has not loaded; a removed reporter gets no more', () => {
    vi.spyOn(globalThis.console, 'error').mockImplementation(() => {});
    const store = createSettingsStore();
    for (let i = 0; i < 60; i++) store.set('particlesAnim', `bad${i}` as never);
    const reports: string[] = [];
    const remove = reportSettingsErrors((msg) => reports.push(msg));
    expect(reports).toHaveLength(50);
    remove();
    store.set('particlesAnim', 'bad' as never);
    expect(reports).toHaveLength(50);
  });
});
