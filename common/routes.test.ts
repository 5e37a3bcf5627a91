import { describe, expect, it } from 'vitest';
import { parsePath, pointPath, withLanguage } from './routes.ts';

describe('paths and routes (SPEC §2)', () => {
  it.each<[string, string | null, Record<string, unknown>]>([
    ['/48.853/2.349', 'detail', { lat: 48.853, lon: 2.349 }],
    ['/-33.900/151.200/gfs', 'detail', { lat: -33.9, lon: 151.2, model: 'gfs' }],
    ['/48.853/2.349/ecmwf/meteogram', 'detail', { lat: 48.853, lon: 2.349, model: 'ecmwf', display: 'meteogram' }],
    ['/48.853/2.349/waves', 'detail', { lat: 48.853, lon: 2.349, display: 'waves' }],
    ['/station/11520/wind', 'station', { id: '11520', view: 'wind' }],
    ['/sounding/50.100/14.300', 'sounding', { lat: 50.1, lon: 14.3 }],
    ['/radiosonde/11520', 'radiosonde', { id: '11520' }],
    ['/settings', 'settings', {}],
    ['/alerts/abc/def', 'alerts', { sub: 'abc/def' }],
    ['/alerts-edit/42', 'alerts-edit', { id: '42' }],
    ['/overlays', 'menu', {}],
    ['/pois', 'menu', {}],
    ['/airport/lkpr', 'airport', { id: 'LKPR' }],
    ['/EGLL', 'airport', { id: 'EGLL' }],
    ['/login', 'login', {}],
    ['/route-planner/vfr/50.1,14.2;49.2,16.6/id:xyz', 'route-planner', { view: 'vfr', coords: '50.1,14.2;49.2,16.6', id: 'xyz' }],
    ['/webcams/123', 'webcams', { id: 123 }],
    ['/webcams/edit/7', 'webcams-edit', { id: 7 }],
    ['/debug', 'debug', {}],
    ['/articles/12', 'articles', { id: '12' }],
  ])('%s opens %s', (path, window, params) => {
    const { route } = parsePath(path);
    expect(route.window).toBe(window);
    expect(route.params).toEqual(params);
  });

  it('reads the language prefix (two letters or zh-TW) and the SEO segment', () => {
    expect(parsePath('/fr/48.853/2.349')).toMatchObject({ lang: 'fr', route: { window: 'detail' } });
    expect(parsePath('/zh-TW/settings')).toMatchObject({ lang: 'zh-TW', route: { window: 'settings' } });
    expect(parsePath('/de/-Wetter-Temperatur-temp/48.853/2.349')).toMatchObject({ lang: 'de', seoOverlay: 'temp', path: '/48.853/2.349', route: { window: 'detail' } });
    expect(parsePath('/-Rain-thunder-rain')).toMatchObject({ seoOverlay: 'rain', route: { home: true } });
    // An id that begins with a dash is the id, not an SEO segment.
    expect(parsePath('/alerts-edit/-XjbhEzpAKU-Xwmt')).toMatchObject({ seoOverlay: null, route: { window: 'alerts-edit', params: { id: '-XjbhEzpAKU-Xwmt' } } });
    expect(parsePath('/fr/alerts-edit/-Wind-wind')).toMatchObject({ lang: 'fr', seoOverlay: null, route: { window: 'alerts-edit', params: { id: '-Wind-wind' } } });
  });

  it.each(['/48/2', '/48.853', '/48.853/2.349/nomodel', '/95.000/2.000', '/nothing/here', '/station', '/webcams/x', '/settings/extra', '/route-planner/vfr/1,2/junk/id:1'])(
    '%s is unknown', (path) => {
      expect(parsePath(path).route.unknown).toBe(true);
    },
  );

  it('distance is the route planner on desktop and its own window on mobile', () => {
    expect(parsePath('/distance/50.1,14.2').route.window).toBe('route-planner');
    expect(parsePath('/distance/50.1,14.2', { mobile: true }).route.window).toBe('distance');
  });

  it('the home path is home', () => {
    expect(parsePath('/').route.home).toBe(true);
    expect(parsePath('/en/').route).toMatchObject({ home: true });
  });

  it('writes point paths with 3 decimals and language prefixes', () => {
    expect(pointPath(48.85341, 2.3488, 'gfs', 'meteogram')).toBe('/48.853/2.349/gfs/meteogram');
    expect(parsePath(pointPath(-10.5, 200.25)).route.params).toEqual({ lat: -10.5, lon: 200.25 });
    expect(withLanguage('/settings', 'fr')).toBe('/fr/settings');
    expect(withLanguage('/', 'de')).toBe('/de');
    expect(withLanguage('/settings', 'en')).toBe('/settings');
  });

  it('never throws on random paths', () => {
    const alphabet = '/-.%0123456789abcdefghijklmnopqrstuvwxyzTW:;,é\u{1F600}';
    let seed = 7;
    const r = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: Math.floor(r() * 40) }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
      expect(() => parsePath(text)).not.toThrow();
      expect(() => parsePath(text, { mobile: true })).not.toThrow();
    }
  });
});
