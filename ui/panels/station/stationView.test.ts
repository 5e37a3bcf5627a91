import { describe, expect, it } from 'vitest';
import type { PointForecast } from '../../../common/api/forecast.ts';
import type { StationObservation, StationSummary } from '../../../common/api/stations.ts';
import { HOUR_MS, MINUTE_MS } from '../../../common/time.ts';
import { compareSeries, forecastAt, forecastWindAt, sortStations } from './stationView.ts';

const T0 = Date.UTC(2025, 5, 1, 0);
const ts = [T0, T0 + 3 * HOUR_MS, T0 + 6 * HOUR_MS];

const forecast = (data: PointForecast['data']): PointForecast => ({
  header: { product: 'demo', refTime: T0, lat: 0, lon: 0, step: 3, modelStep: 3, units: {} }, ts, data,
});
const observation = (time: number, temp: number | null, wind: number | null = null): StationObservation => ({
  time, temp, wind, dewpoint: null, gust: null, windDir: null, pressure: null, rh: null, weather: null,
});

describe('forecastAt', () => {
  it('reads a step as it is and a time between two steps on the straight line between them', () => {
    const temp = [280, 283, null];
    expect(forecastAt(ts, temp, T0 + 3 * HOUR_MS)).toBe(283);
    // One hour into the three: a third of the way from 280 to 283.
    expect(forecastAt(ts, temp, T0 + HOUR_MS)).toBeCloseTo(281, 10);
  });

  it('has nothing outside the forecast, where a step around the time has no value, or without the series', () => {
    const temp = [280, 283, null];
    expect(forecastAt(ts, temp, T0 - MINUTE_MS)).toBeNull();
    expect(forecastAt(ts, temp, T0 + 7 * HOUR_MS)).toBeNull();
    expect(forecastAt(ts, temp, T0 + 4 * HOUR_MS)).toBeNull();
    expect(forecastAt(ts, undefined, T0)).toBeNull();
  });

  it('takes the wind speed from the components, each read at the time first', () => {
    // u from 3 to 0, v from 0 to 4: at mid-step (1.5, 2) -> 2.5 m/s.
    const f = forecast({ wind_u: [3, 0, 0], wind_v: [0, 4, 4] });
    expect(forecastWindAt(f, T0 + 1.5 * HOUR_MS)).toBeCloseTo(2.5, 10);
  });
});

describe('compareSeries', () => {
  it('keeps the last observation of each hour and measures each model against it', () => {
    const observations = [
      observation(T0 + 20 * MINUTE_MS, 270),
      // a special in the same hour replaces the routine report
      observation(T0 + 40 * MINUTE_MS, 281),
      observation(T0 + 3 * HOUR_MS, 282),
      // after the forecast ends: no pair
      observation(T0 + 8 * HOUR_MS, 290),
    ];
    const warm = forecast({ temp: [282, 284, 285] });
    const { times, observed, models } = compareSeries(observations, new Map([['warm', warm]]), 'temp');
    expect(times).toEqual([T0 + 40 * MINUTE_MS, T0 + 3 * HOUR_MS, T0 + 8 * HOUR_MS]);
    expect(observed).toEqual([281, 282, 290]);
    const [m] = models;
    // 40 min in: 282 + 2 * 40/180; at 3 h: 284.
    const first = 282 + 2 * (40 / 180);
    expect(m.values[0]).toBeCloseTo(first, 10);
    expect(m.values[2]).toBeNull();
    expect(m.count).toBe(2);
    expect(m.meanError).toBeCloseTo(((first - 281) + (284 - 282)) / 2, 10);
    expect(m.meanAbsError).toBeCloseTo(m.meanError!, 10);
  });

  it('has no errors for a model with no hour in common', () => {
    const { models } = compareSeries([observation(T0 - HOUR_MS, 280)], new Map([['m', forecast({ temp: [1, 2, 3] })]]), 'temp');
    expect(models[0]).toMatchObject({ count: 0, meanError: null, meanAbsError: null });
  });
});

describe('sortStations', () => {
  const s = (id: string, source: string, distanceKm: number): StationSummary => ({ id, name: id, lat: 0, lon: 0, elevation: null, source, latest: null, distanceKm });
  const list = [s('PWS1', 'netatmo', 2), s('KAAA', 'nwsStations', 12), s('KBBB', 'metar', 8)];

  it('puts the official networks first for profi, each group by distance', () => {
    expect(sortStations(list, 'profi').map((x) => x.id)).toEqual(['KBBB', 'KAAA', 'PWS1']);
  });

  it('orders by distance alone for distance', () => {
    expect(sortStations(list, 'distance').map((x) => x.id)).toEqual(['PWS1', 'KBBB', 'KAAA']);
  });
});
