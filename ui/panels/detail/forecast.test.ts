import { afterEach, describe, expect, it, vi } from 'vitest';
import { aqiClass } from '../../../common/catalogue/classes.ts';
import { PM10_BREAKPOINTS, PM2P5_BREAKPOINTS, airQualityTier } from '../../../common/catalogue/colors.ts';
import {
  aqiOf, detailProduct, detailStep, fetchPlaceName, hasHourly, hasValues, nativeStepHours, placeName, stepAt, stepIndices, weatherSymbol, windOf, windSeries,
} from './forecast.ts';
import { HOUR_MS } from '../../../common/time.ts';

const REF = Date.UTC(2025, 10, 26, 0);

describe('the detail window\'s product (SPEC §2 route model, §8 message; issue 12 §3 item 5)', () => {
  it('a route model the server does not serve falls back to the map\'s product with the SPEC §8 message', () => {
    expect(detailProduct({ model: 'gfs', mapProduct: 'demo', served: ['demo', 'gfs2p5-20170322'] })).toEqual({
      product: 'demo', reverted: { model: 'GFS', prevModel: 'Demo data' },
    });
    // The map's product not served either (a file opened in the browser): the first served one.
    expect(detailProduct({ model: 'gfs', mapProduct: 'local-1', served: ['ecmwf'] })).toEqual({
      product: 'ecmwf', reverted: { model: 'GFS', prevModel: 'ECMWF IFS' },
    });
  });

  it('a served route model is asked as it is; without one, the map\'s product', () => {
    expect(detailProduct({ model: 'gfs', mapProduct: 'demo', served: ['demo', 'gfs'] })).toEqual({ product: 'gfs' });
    expect(detailProduct({ model: undefined, mapProduct: 'demo', served: ['demo'] })).toEqual({ product: 'demo' });
    expect(detailProduct({ model: 'local-2', mapProduct: 'local-2', served: ['demo'], local: 'local-2' })).toEqual({ product: 'local-2' });
  });

  it('waits for the product list; a list that could not be read leaves the route model as it is', () => {
    expect(detailProduct({ model: 'gfs', mapProduct: null, served: null })).toEqual({ product: null });
    expect(detailProduct({ model: 'gfs', mapProduct: 'demo', served: [] })).toEqual({ product: 'gfs' });
  });
});

describe('steps shown', () => {
  it('SPEC §9: 3 h by default, 1 h only for Premium users who chose it', () => {
    expect(detailStep(false, false)).toBe(3);
    expect(detailStep(false, true)).toBe(3);
    expect(detailStep(true, false)).toBe(3);
    expect(detailStep(true, true)).toBe(1);
  });

  it('keeps forecast hours that are multiples of the step, as the server\'s step query does', () => {
    const hourly = Array.from({ length: 10 }, (_, h) => REF + h * HOUR_MS);
    expect(stepIndices(hourly, REF, 3)).toEqual([0, 3, 6, 9]);
    expect(stepIndices(hourly, REF, 1)).toHaveLength(10);
    // A run whose steps start at +1 h.
    expect(stepIndices(hourly.slice(1), REF, 3)).toEqual([2, 5, 8]);
  });

  it('SPEC §9: hourly data when the steps are under 2 hours', () => {
    expect(nativeStepHours([REF, REF + HOUR_MS, REF + 2 * HOUR_MS])).toBe(1);
    expect(hasHourly({ header: {}, ts: [REF, REF + HOUR_MS] })).toBe(true);
    expect(hasHourly({ header: {}, ts: [REF, REF + 3 * HOUR_MS, REF + 6 * HOUR_MS] })).toBe(false);
    // A free answer of an hourly model: 3-hourly values, and the header says the model is hourly.
    expect(hasHourly({ header: { modelStep: 1 }, ts: [REF, REF + 3 * HOUR_MS, REF + 6 * HOUR_MS] })).toBe(true);
    expect(hasHourly({ header: { modelStep: 3 }, ts: [REF, REF + 3 * HOUR_MS] })).toBe(false);
    expect(nativeStepHours([REF])).toBe(1);
  });

  it('finds the step at or before a time', () => {
    const ts = [REF, REF + 3 * HOUR_MS, REF + 6 * HOUR_MS];
    expect(stepAt(ts, REF - HOUR_MS)).toBe(0);
    expect(stepAt(ts, REF + 3 * HOUR_MS)).toBe(1);
    expect(stepAt(ts, REF + 5 * HOUR_MS)).toBe(1);
    expect(stepAt(ts, REF + 60 * HOUR_MS)).toBe(2);
  });

  it('rows need at least one value', () => {
    expect(hasValues(undefined)).toBe(false);
    expect(hasValues([null, null])).toBe(false);
    expect(hasValues([null, 2])).toBe(true);
  });
});

describe('wind from components', () => {
  it.each([
    // u, v -> speed, the direction it blows from
    [0, -5, 5, 0], // from the north
    [-5, 0, 5, 90], // from the east
    [0, 5, 5, 180], // from the south
    [5, 0, 5, 270], // from the west
    [-3, -4, 5, 36.87],
    [0, 0, 0, 0],
  ])('u %f v %f -> %f m/s from %f°', (u, v, speed, from) => {
    const w = windOf(u, v);
    expect(w.speed).toBeCloseTo(speed, 6);
    expect(w.from).toBeCloseTo(from, 2);
  });

  it('a missing component makes the step missing', () => {
    expect(windSeries([1, null, 3], [1, 2, null])).toEqual([windOf(1, 1), null, null]);
    expect(windSeries(undefined, [1])).toEqual([]);
  });
});

describe('weather symbol', () => {
  it.each([
    [0, 0, 290, 'clear'],
    [20, 0, 290, 'fewClouds'],
    [50, 0, 290, 'partlyCloudy'],
    [70, 0.05, 290, 'cloudy'],
    [95, 0, 290, 'overcast'],
    [95, 0.3, 290, 'lightRain'],
    [95, 2, 290, 'rain'],
    [95, 6, 290, 'heavyRain'],
    [95, 2, 270, 'snow'],
    [null, null, 290, null],
    [null, 0, null, 'clear'],
  ] as const)('clouds %s %%, rain %s mm/h, %s K -> %s', (clouds, rain, temp, symbol) => {
    expect(weatherSymbol(clouds, rain, temp)).toBe(symbol);
  });
});

describe('air quality index (US EPA)', () => {
  it.each([
    ['pm2p5', 0, 0],
    ['pm2p5', 9.0, 50],
    ['pm2p5', 9.09, 50], // truncated to 9.0
    ['pm2p5', 9.1, 51],
    ['pm2p5', 35.4, 100],
    ['pm2p5', 35.5, 101],
    ['pm2p5', 55.5, 151],
    ['pm2p5', 125.5, 201],
    ['pm2p5', 225.5, 301],
    ['pm2p5', 325.4, 500],
    ['pm2p5', 1000, 500],
    ['pm10', 54, 50],
    ['pm10', 55, 51],
    ['pm10', 154.9, 100],
    ['pm10', 155, 101],
    ['pm10', 425, 301],
  ] as const)('%s %f µg/m³ -> AQI %i', (pollutant, c, aqi) => {
    expect(aqiOf(pollutant, c)).toBe(aqi);
  });

  it('the index tier equals the concentration tier of the map\'s colour classes', () => {
    for (let c = 0; c < 700; c += 0.7) {
      expect(aqiClass(aqiOf('pm2p5', c))).toBe(airQualityTier(PM2P5_BREAKPOINTS, Math.floor(c * 10 + 1e-9) / 10));
      expect(aqiClass(aqiOf('pm10', c))).toBe(airQualityTier(PM10_BREAKPOINTS, Math.floor(c)));
    }
  });
});

describe('place name', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes the most local name with its country', () => {
    expect(placeName({ name: 'Paris', country: 'France' })).toBe('Paris, France');
    expect(placeName({ locality: 'Montmartre', city: 'Paris', country: 'France' })).toBe('Montmartre, France');
    expect(placeName({ name: 'x', nameValid: false, city: 'Lyon', country: 'France' })).toBe('Lyon, France');
    expect(placeName({ country: 'Atlantis' })).toBe('Atlantis');
    expect(placeName({ name: 'Monaco', country: 'Monaco' })).toBe('Monaco');
    expect(placeName({})).toBeNull();
    expect(placeName(null)).toBeNull();
  });

  it('is null when the reverse route is missing or fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Not Found"}', { status: 404 })));
    expect(await fetchPlaceName(48.853, 2.349, 10, 'en')).toBeNull();
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('network down'); }));
    expect(await fetchPlaceName(48.853, 2.349, 10, 'en')).toBeNull();
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify({ city: 'Paris', country: 'France' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await fetchPlaceName(48.853, 2.349, 10, 'fr')).toBe('Paris, France');
    expect(fetchMock.mock.calls[0][0]).toBe('/reverse/v3/48.853/2.349/10?lang=fr');
  });
});
