import { describe, expect, it, vi } from 'vitest';
import type { PanelModel } from '../panels/panelModel.ts';
import { createLayerModel } from './layerModel.ts';
import { createMapModel } from './mapModel.ts';
import { createRouter } from './router.ts';
import { createUsageLog } from './usage.ts';

function setup(pathname: string, search = '') {
  const loc = { pathname, search, hash: '' };
  const history = {
    state: null,
    pushState: vi.fn((_s: unknown, _t: string, url: string) => Object.assign(loc, { pathname: url.split('?')[0] })),
    replaceState: vi.fn(),
  };
  const listeners: Record<string, () => void> = {};
  const target = { addEventListener: (t: string, f: () => void) => (listeners[t] = f), removeEventListener: vi.fn() };
  const known = new Set(['detail', 'settings', 'debug', 'login']);
  const open = new Set<string>();
  const panels = {
    open: vi.fn(async (ident: string) => {
      if (known.has(ident)) open.add(ident);
      return known.has(ident);
    }),
    close: vi.fn((ident: string) => open.delete(ident)),
    isOpen: (ident: string) => open.has(ident),
    closeAll: vi.fn(),
    has: (ident: string) => known.has(ident),
  } as unknown as PanelModel & { open: ReturnType<typeof vi.fn>; closeAll: ReturnType<typeof vi.fn> };
  const map = createMapModel({ lat: 0, lon: 0, zoom: 3 });
  const layer = createLayerModel({ product: 'demo' });
  const usage = createUsageLog(() => 1);
  const router = createRouter({ panels, map, layer, usage, mobile: () => false, lang: () => router.initial.lang, location: loc, history: history as never, target: target as never });
  return { router, panels, map, layer, usage, history, loc, back: () => listeners.popstate() };
}

describe('router (SPEC §2)', () => {
  it('the home path logs a start-up event and opens nothing', () => {
    const { router, panels, usage } = setup('/');
    router.start();
    expect(usage.all.value.map((e) => e.name)).toEqual(['startup']);
    expect(panels.open).not.toHaveBeenCalled();
  });

  it('an unknown path logs a 404 usage event and opens nothing', () => {
    const { router, panels, usage } = setup('/no/such/place');
    router.start();
    expect(usage.all.value).toMatchObject([{ name: '404', detail: '/no/such/place' }]);
    expect(panels.open).not.toHaveBeenCalled();
  });

  it('a route opens its window with its parameters; the SEO overlay is applied', () => {
    const { router, panels, layer } = setup('/fr/-Vent-gust/48.853/2.349/meteogram');
    router.start();
    expect(panels.open).toHaveBeenCalledWith('detail', { lat: 48.853, lon: 2.349, display: 'meteogram' });
    expect(layer.overlay.value).toBe('gust');
    expect(router.initial.lang).toBe('fr');
  });

  it('a deep link to a place centres the map there: its coordinates win over the search part\'s, whose zoom stays', () => {
    const a = setup('/48.853/2.349');
    a.router.start();
    expect(a.map.lat.value).toBeCloseTo(48.853, 6);
    const b = setup('/48.853/2.349', '?10.000,20.000,5');
    b.router.start();
    expect([b.map.lat.value, b.map.lon.value]).toEqual([expect.closeTo(48.853, 6), expect.closeTo(2.349, 6)]);
  });

  it.each(['/sounding/50.087/14.421', '/multimodel/50.087/14.421', '/cap-alert/50.087/14.421'])(
    '%s centres the map on its place though its window is not built yet (issue 12 §3 item 4)', (path) => {
      const { router, map, usage } = setup(path, '?temp,10.000,20.000,5');
      router.start();
      expect(map.lat.value).toBeCloseTo(50.087, 6);
      expect(map.lon.value).toBeCloseTo(14.421, 6);
      expect(usage.all.value).toMatchObject([{ name: '404' }]);
    });

  it('navigate writes the path with the language prefix and keeps the search part', async () => {
    const { router, history } = setup('/de/', '?temp,50.000,14.000,5');
    router.start();
    await router.navigate('/48.853/2.349');
    expect(history.pushState).toHaveBeenCalledWith(null, '', '/de/48.853/2.349?temp,50.000,14.000,5');
  });

  it('closing a routed window puts the home path back', async () => {
    const { router, history } = setup('/settings');
    router.start();
    router.closePanel('settings');
    expect(history.pushState).toHaveBeenLastCalledWith(null, '', '/');
  });

  it('closing a routed window over another puts the other one\'s path back', async () => {
    const { router, history } = setup('/48.853/2.349');
    router.start();
    await router.navigate('/login');
    router.closePanel('login');
    expect(history.pushState).toHaveBeenLastCalledWith(null, '', '/48.853/2.349');
    router.closePanel('detail');
    expect(history.pushState).toHaveBeenLastCalledWith(null, '', '/');
  });

  it('browser back to a path that names nothing closes every panel and re-centres on the shared coordinates', () => {
    const { router, panels, map, loc, back } = setup('/settings');
    router.start();
    Object.assign(loc, { pathname: '/', search: '?temp,10.000,20.000,6' });
    back();
    expect(panels.closeAll).toHaveBeenCalled();
    expect(map.lat.value).toBeCloseTo(10, 9);
    expect([map.lon.value, map.zoom.value]).toEqual([20, 6]);
  });

  it('browser back to a routed path opens it', () => {
    const { router, panels, loc, back } = setup('/');
    router.start();
    Object.assign(loc, { pathname: '/48.100/11.500' });
    back();
    expect(panels.open).toHaveBeenCalledWith('detail', { lat: 48.1, lon: 11.5 });
  });
});
