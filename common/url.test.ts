import { describe, expect, it } from 'vitest';
import {
  decodeLocationCode, encodeLocationCode, formatDate, formatSearch, parseDate, parseSearch, type UrlState,
} from './url.ts';

describe('shared URL search part', () => {
  it.each<[string, UrlState]>([
    ['?temp,50.083,14.417,5', { overlay: 'temp', lat: 50.083, lon: 14.417, zoom: 5 }],
    ['?50.083,14.417,5', { lat: 50.083, lon: 14.417, zoom: 5 }],
    ['?850h,wind,gfs,2026-11-25-12,-33.900,151.200,7', { level: '850h', overlay: 'wind', product: 'gfs', date: Date.UTC(2026, 10, 25, 12), lat: -33.9, lon: 151.2, zoom: 7 }],
    ['?rain,2026112512,10.000,20.000,4,m:abcde,i:pressure,p:cities,d:picker,launchedBy:widget', {
      overlay: 'rain', date: Date.UTC(2026, 10, 25, 12), lat: 10, lon: 20, zoom: 4, pickerCode: 'abcde', isolines: 'pressure', pois: 'cities', pickerOpen: true, launchedBy: 'widget',
    }],
  ])('parses %s', (search, state) => {
    expect(parseSearch(search).state).toEqual(state);
  });

  it('omits the wind overlay and the default level, writes 3 decimals and an integer zoom', () => {
    expect(formatSearch({ overlay: 'wind', level: 'surface', lat: 50.08349, lon: 14.41678, zoom: 5.4 })).toBe('?50.083,14.417,5');
    expect(formatSearch({ overlay: 'temp', lat: 0, lon: -0.0001, zoom: 3 })).toBe('?temp,0.000,-0.000,3');
  });

  it('strips utm_ parameters and keeps other key=value pairs', () => {
    const { state, params } = parseSearch('?temp,50.083,14.417,5&utm_source=x&lang=fr&UTM_medium=y');
    expect(state.overlay).toBe('temp');
    expect(params).toEqual([['lang', 'fr']]);
    expect(formatSearch(state, params)).toBe('?temp,50.083,14.417,5&lang=fr');
  });

  it('ignores an unknown item on its own: the rest of the list still places the map (issue 12 §3 item 7)', () => {
    const { state, params } = parseSearch('?temp,850h,gfs2p5-20170322,50.087,14.421,5,utm_source=x,foo=bar');
    expect(state).toEqual({ overlay: 'temp', level: '850h', product: 'gfs2p5-20170322', lat: 50.087, lon: 14.421, zoom: 5 });
    expect(params).toEqual([['foo', 'bar']]);
    expect(parseSearch('?temp,nonsense,50.087,14.421,5,x:y,=z').state).toEqual({ overlay: 'temp', lat: 50.087, lon: 14.421, zoom: 5 });
  });

  it('a key=value part keeps the commas of its value', () => {
    expect(parseSearch('?temp,50.000,14.000,5&name=Paris,France')).toEqual({
      state: { overlay: 'temp', lat: 50, lon: 14, zoom: 5 }, params: [['name', 'Paris,France']],
    });
  });

  it('writes the picker, isolines and poi items (SPEC §2), and reads them back', () => {
    const state: UrlState = { overlay: 'rain', lat: 50.087, lon: 14.421, zoom: 6, pickerCode: encodeLocationCode(50.1, 14.4), isolines: 'pressure', pois: 'cities', pickerOpen: true };
    const search = formatSearch(state);
    expect(search).toBe(`?rain,50.087,14.421,6,m:${state.pickerCode},i:pressure,p:cities,d:picker`);
    expect(parseSearch(search).state).toEqual(state);
  });

  it('location codes: five base-60 alphanumerics for a node of the 0.01° grid (SPEC §5, §9)', () => {
    for (const [lat, lon] of [[50.087, 14.421], [-90, -180], [90, 179.99], [0, 0], [-33.87, 151.21], [12.345, -179.999]]) {
      const code = encodeLocationCode(lat, lon);
      expect(code).toMatch(/^[A-Za-z0-9]{5}$/);
      const back = decodeLocationCode(code)!;
      expect(Math.abs(back.lat - lat)).toBeLessThanOrEqual(0.005 + 1e-9);
      const dLon = Math.abs(((back.lon - lon + 540) % 360) - 180);
      expect(dLon).toBeLessThanOrEqual(0.005 + 1e-9);
    }
    expect(encodeLocationCode(50.09, 374.42)).toBe(encodeLocationCode(50.09, 14.42));
    expect(decodeLocationCode('abcd')).toBeNull();
    expect(decodeLocationCode('ab_de')).toBeNull();
    expect(decodeLocationCode('lllll')).toBeNull();
    expect(decodeLocationCode('ZZZZZ')).toBeNull();
  });

  it('ignores parts of 8 or fewer characters without key=value', () => {
    expect(parseSearch('?temp').state).toEqual({});
    expect(parseSearch('?fbclid&temp,1.000,2.000,3').state).toEqual({ overlay: 'temp', lat: 1, lon: 2, zoom: 3 });
  });

  it.each([
    ['out of range latitude', '?temp,95.000,10.000,5'],
    ['out of range longitude', '?temp,45.000,800.000,5'],
    ['only one coordinate', '?temp,45.000,5,abc'],
  ])('drops %s', (_, search) => {
    const { state } = parseSearch(search);
    expect(state.lat).toBeUndefined();
    expect(state.zoom).toBeUndefined();
    expect(state.overlay).toBe('temp');
  });

  it('checks the codes of SPEC §5', () => {
    const { state } = parseSearch('?temp,1.000,2.000,3,m:abc,i:X,p:ab,d:other');
    expect(state).toEqual({ overlay: 'temp', lat: 1, lon: 2, zoom: 3 });
  });

  it('parses and formats dates, hyphens optional, rejecting impossible ones', () => {
    expect(parseDate('2026-02-28-23')).toBe(Date.UTC(2026, 1, 28, 23));
    expect(parseDate('2026022823')).toBe(Date.UTC(2026, 1, 28, 23));
    expect(parseDate('2026-02-30-00')).toBeUndefined();
    expect(parseDate('2026-02-28-24')).toBeUndefined();
    expect(formatDate(Date.UTC(2026, 0, 5, 6))).toBe('2026-01-05-06');
  });

  it('property: parse(format(x)) equals x', () => {
    let s = 12345;
    const r = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const pick = <T,>(list: T[]) => list[Math.floor(r() * list.length)];
    for (let n = 0; n < 500; n++) {
      const x: UrlState = {
        overlay: pick(['temp', 'gust', 'rain', 'clouds', 'pressure']),
        level: pick(['850h', '500h', '100m']),
        product: pick(['gfs', 'ecmwf', 'icon']),
        date: Date.UTC(2020 + Math.floor(r() * 10), Math.floor(r() * 12), 1 + Math.floor(r() * 28), Math.floor(r() * 24)),
        lat: Math.round((r() * 180 - 90) * 1000) / 1000,
        lon: Math.round((r() * 360 - 180) * 1000) / 1000,
        zoom: 3 + Math.floor(r() * 14),
      };
      expect(parseSearch(formatSearch(x)).state).toEqual(x);
    }
  });

  it('property: random strings never throw', () => {
    const alphabet = '?&=,:%-._0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ%E0%A4 \u00e9\u{1F600}';
    let s = 99;
    const r = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let n = 0; n < 3000; n++) {
      const chars = Array.from({ length: Math.floor(r() * 60) }, () => alphabet[Math.floor(r() * alphabet.length)]);
      const text = chars.join('');
      expect(() => formatSearch(parseSearch(text).state, parseSearch(text).params)).not.toThrow();
    }
  });
});
