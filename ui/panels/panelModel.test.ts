import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_REMOVAL_MS, createPanelModel, OPEN_CLASS_DELAY_MS, type PanelDef } from './panelModel.ts';

type C = string;

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function registry(extra: Record<string, Partial<PanelDef<C>>> = {}) {
  const make = (ident: string, pane: PanelDef<C>['pane'], more: Partial<PanelDef<C>> = {}): PanelDef<C> => ({
    ident, pane, load: async () => ({ default: `<${ident}>` }), ...more,
  });
  const defs: Record<string, PanelDef<C>> = {
    detail: make('detail', 'bottom'),
    meteo: make('meteo', 'bottom'),
    settings: make('settings', 'rhpane'),
    sounding: make('sounding', 'rhpane'),
    radiosonde: make('radiosonde', 'rhpane'),
    multimodel: make('multimodel', 'center'),
    search: make('search', 'top', { mobilePane: 'fullscreen-mobile' }),
    picker: make('picker', 'bottom', { neverCloses: true }),
  };
  for (const [k, v] of Object.entries(extra)) defs[k] = { ...make(k, 'top'), ...v } as PanelDef<C>;
  return defs;
}

describe('panes and panels (SPEC §2, §4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads a panel, adds the open class after 50 ms, removes it 500 ms after closing', async () => {
    const panels = createPanelModel({ registry: registry() });
    expect(panels.states.value.detail).toBeUndefined();
    const opened = panels.open('detail', { lat: 1 });
    expect(panels.states.value.detail).toBe('loading');
    expect(await opened).toBe(true);
    expect(panels.states.value.detail).toBe('open');
    expect(panels.component('detail')).toBe('<detail>');
    expect(panels.windows.value).toMatchObject([{ ident: 'detail', phase: 'opening', params: { lat: 1 } }]);
    vi.advanceTimersByTime(OPEN_CLASS_DELAY_MS);
    expect(panels.windows.value[0].phase).toBe('open');
    panels.close('detail');
    expect(panels.windows.value[0].phase).toBe('closing');
    vi.advanceTimersByTime(CLOSE_REMOVAL_MS - 1);
    expect(panels.windows.value).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(panels.windows.value).toHaveLength(0);
    expect(panels.states.value.detail).toBe('closed');
  });

  it('a panel opened again while closing stays open (its pending removal is cancelled)', async () => {
    const panels = createPanelModel({ registry: registry() });
    await panels.open('search');
    vi.advanceTimersByTime(OPEN_CLASS_DELAY_MS);
    panels.close('search');
    vi.advanceTimersByTime(CLOSE_REMOVAL_MS - 100);
    expect(await panels.open('search')).toBe(true);
    vi.advanceTimersByTime(CLOSE_REMOVAL_MS);
    expect(panels.windows.value).toMatchObject([{ ident: 'search', phase: 'open' }]);
    expect(panels.isOpen('search')).toBe(true);
  });

  it('opening a panel closes the others of the same pane family, not other panes or never-closing ones', async () => {
    const panels = createPanelModel({ registry: registry() });
    await panels.open('picker');
    await panels.open('detail');
    await panels.open('settings');
    await panels.open('meteo');
    const phases = Object.fromEntries(panels.windows.value.map((w) => [w.ident, w.phase]));
    expect(phases).toMatchObject({ detail: 'closing', settings: 'opening', meteo: 'opening', picker: 'opening' });
  });

  it('radiosonde and sounding replace each other in the right pane without animation', async () => {
    const panels = createPanelModel({ registry: registry() });
    await panels.open('sounding');
    await panels.open('radiosonde');
    expect(panels.windows.value.map((w) => [w.ident, w.phase, w.instant])).toEqual([['radiosonde', 'open', true]]);
  });

  it('a right-pane or full-screen panel closes the multimodel panel', async () => {
    const panels = createPanelModel({ registry: registry() });
    await panels.open('multimodel');
    await panels.open('settings');
    expect(panels.windows.value.find((w) => w.ident === 'multimodel')?.phase).toBe('closing');
  });

  it('the multimodel window of the registry: the point forecast replaces it, a right-pane window closes it, a top one leaves it open', async () => {
    // The panes of ui/panels/panels.ts, with loads that need no chunk.
    const { PANELS } = await import('./panels.ts');
    const real = (ident: string): PanelDef<C> => ({ ...PANELS[ident], load: async () => ({ default: `<${ident}>` }), prepare: undefined });
    const defs = Object.fromEntries(['multimodel', 'detail', 'settings', 'search', 'favs'].map((i) => [i, real(i)]));
    const phase = (panels: ReturnType<typeof createPanelModel<C>>) => panels.windows.value.find((w) => w.ident === 'multimodel')?.phase;
    const desktop = createPanelModel({ registry: defs });
    await desktop.open('multimodel', { lat: 50, lon: 14 });
    await desktop.open('search');
    expect(phase(desktop)).toBe('opening');
    await desktop.open('favs');
    expect(phase(desktop)).toBe('closing');
    await desktop.open('multimodel', { lat: 50, lon: 14 });
    await desktop.open('detail', { lat: 50, lon: 14 });
    expect(phase(desktop)).toBe('closing');
    // A phone: full screen, closed by the full-screen search.
    const mobile = createPanelModel({ registry: defs, mobile: () => true });
    await mobile.open('multimodel', { lat: 50, lon: 14 });
    expect(mobile.windows.value[0].pane).toBe('fullscreen-mobile');
    await mobile.open('search');
    expect(phase(mobile)).toBe('closing');
  });

  it('closing while loading cancels the opening', async () => {
    const gate = deferred<{ default: C }>();
    const panels = createPanelModel({ registry: registry({ slow: { pane: 'top', load: () => gate.promise } }) });
    const opened = panels.open('slow');
    panels.close('slow');
    gate.resolve({ default: 'slow' });
    expect(await opened).toBe(false);
    expect(panels.windows.value).toHaveLength(0);
    expect(panels.states.value.slow).toBe('closed');
    // A later open works (the code is loaded now).
    expect(await panels.open('slow')).toBe(true);
  });

  it('opening an open panel re-runs its open handler with the new parameters', async () => {
    const panels = createPanelModel({ registry: registry() });
    await panels.open('detail', { lat: 1 });
    await panels.open('detail', { lat: 2 });
    expect(panels.windows.value).toMatchObject([{ ident: 'detail', openCount: 2, params: { lat: 2 } }]);
  });

  it('an unknown panel logs "Attempt to open non existent plugin"', async () => {
    const log = vi.fn();
    const panels = createPanelModel({ registry: registry(), log });
    expect(await panels.open('nope')).toBe(false);
    expect(log).toHaveBeenCalledWith('Attempt to open non existent plugin', 'nope');
  });

  it('a panel that fails to load is logged and can be tried again', async () => {
    const log = vi.fn();
    let fail = true;
    const panels = createPanelModel({ registry: registry({ flaky: { pane: 'top', load: async () => { if (fail) throw new Error('chunk'); return { default: 'ok' }; } } }), log });
    expect(await panels.open('flaky')).toBe(false);
    expect(panels.states.value.flaky).toBe('notLoaded');
    fail = false;
    expect(await panels.open('flaky')).toBe(true);
  });

  it('uses the mobile pane on mobile, and closes itself after its time-out', async () => {
    const panels = createPanelModel({ registry: registry({ toast: { pane: 'top', timeoutMs: 3000 } }), mobile: () => true });
    await panels.open('search');
    expect(panels.windows.value[0].pane).toBe('fullscreen-mobile');
    await panels.open('toast');
    vi.advanceTimersByTime(3000 + CLOSE_REMOVAL_MS);
    expect(panels.windows.value.map((w) => w.ident)).toEqual(['search']);
  });

  it('closeAll closes everything but never-closing panels', async () => {
    const panels = createPanelModel({ registry: registry() });
    await panels.open('picker');
    await panels.open('settings');
    panels.closeAll();
    vi.advanceTimersByTime(CLOSE_REMOVAL_MS);
    expect(panels.windows.value.map((w) => w.ident)).toEqual(['picker']);
    expect(panels.anyOpen.value).toBe(true);
  });
});
