import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { acceptLanguageTags, approximateLocation, countryFromAcceptLanguage, loadCapitals } from '../location/approximateLocation.ts';

describe('Accept-Language', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['en-GB,en;q=0.9', ['en-GB', 'en']],
    ['de;q=0.5, fr-CH, *;q=0.1', ['fr-CH', 'de']],
    ['cs;q=0, sk', ['sk']],
  ])('%j -> %j', (header, tags) => {
    expect(acceptLanguageTags(header)).toEqual(tags);
  });

  const known = (cc: string) => ['gb', 'us', 'cz', 'de', 'ch', 'br', 'pt', 'cn', 'tw', 'no'].includes(cc);
  it.each([
    ['en-GB,en;q=0.9', { country: 'gb', from: 'region' }],
    ['en-UK', { country: 'gb', from: 'region' }],
    ['cs', { country: 'cz', from: 'language' }],
    ['cs,en-US;q=0.5', { country: 'us', from: 'region' }],
    ['pt-BR', { country: 'br', from: 'region' }],
    ['zh-Hant-TW', { country: 'tw', from: 'region' }],
    ['nb', { country: 'no', from: 'language' }],
    ['es-419', null],
    ['xx', null],
    [undefined, null],
  ])('%j -> %j', (header, expected) => {
    expect(countryFromAcceptLanguage(header, known)).toEqual(expected);
  });
});

describe('GET /services/umisteni (SPEC §7: ll, country, city)', () => {
  it('knows every country capital from GeoNames', async () => {
    const capitals = await loadCapitals();
    expect(capitals.size).toBeGreaterThan(200);
    const prague = capitals.get('cz')!;
    expect(prague.name).toBe('Prague');
    expect(prague.lat).toBeCloseTo(50.09, 1);
    expect(prague.lon).toBeCloseTo(14.42, 1);
  });

  it('an unknown country gives no place', () => {
    expect(approximateLocation('xx', new Map())).toEqual({ ll: null, country: null, city: null, approximate: true, source: 'none' });
  });

  it.each([
    ['en-GB,en;q=0.9', 'gb', 'London', [51.5, -0.13]],
    ['cs-CZ', 'cz', 'Prague', [50.09, 14.42]],
    ['de', 'de', 'Berlin', [52.52, 13.41]],
    ['ja', 'jp', 'Tokyo', [35.69, 139.69]],
  ] as const)('%s -> %s, %s', async (header, country, city, [lat, lon]) => {
    const server = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null });
    try {
      const response = await server.inject({ method: 'GET', url: '/services/umisteni', headers: { 'accept-language': header } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json();
      expect(body).toMatchObject({ country, city, approximate: true, source: 'accept-language' });
      expect(body.ll[0]).toBeCloseTo(lat, 0);
      expect(body.ll[1]).toBeCloseTo(lon, 0);
    } finally {
      await server.close();
    }
  });
});
