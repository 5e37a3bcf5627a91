import { describe, expect, it } from 'vitest';
import type { LevelForecast, PointForecast } from '../api/forecast.ts';
import { soundingFromForecast, windFromComponents } from './modelSounding.ts';
import { dewpointFromRelativeHumidity } from './thermo.ts';

const REF = Date.UTC(2026, 5, 1, 0);
const HOUR = 3_600_000;

/** Two steps on four levels; heights from a 50-hPa-per-500-m profile, so ln p is linear in height between them. */
function levels(): LevelForecast {
  const idents = ['975h', '900h', '850h', '500h'];
  const heights = [300, 1000, 1500, 5600];
  const data: LevelForecast['data'] = {};
  idents.forEach((l, k) => {
    data[`temp-${l}`] = [290 - 6 * k, 291 - 6 * k];
    data[`rh-${l}`] = [100, 50];
    data[`gh-${l}`] = [heights[k], heights[k] + 10];
    data[`wind_u-${l}`] = [0, 10];
    data[`wind_v-${l}`] = [-5, 0];
  });
  return {
    header: { product: 'gfs', refTime: REF, lat: 50, lon: 14, step: 3, modelStep: 1, units: {}, levels: idents, modelElevation: 1200 },
    ts: [REF, REF + 3 * HOUR],
    data,
  };
}

function point(): PointForecast {
  return {
    header: { product: 'gfs', refTime: REF, lat: 50, lon: 14, step: 3, modelStep: 1, units: {}, modelElevation: 1200 },
    ts: [REF, REF + 3 * HOUR],
    data: { temp: [285.15, 286.15], dewpoint: [280.15, null], rh: [null, 40], pressure: [101_325, 101_000], wind_u: [3, 0], wind_v: [4, 0] },
  };
}

describe('wind from components', () => {
  it('is where the wind comes from: a southward v is a north wind, an eastward u a west wind', () => {
    expect(windFromComponents(0, -5)).toEqual({ dir: 0, speed: 5 });
    expect(windFromComponents(10, 0)).toEqual({ dir: 270, speed: 10 });
    expect(windFromComponents(-3, 3).dir).toBeCloseTo(135, 9);
    expect(windFromComponents(null, 3)).toEqual({ dir: null, speed: null });
  });
});

describe('a model sounding from the meteogram and the point forecast', () => {
  it('turns each level\'s K, %, gpm, u and v into °C, a Bolton dew point, m and wind, from the ground up', () => {
    const lowland = levels();
    lowland.header.modelElevation = 100;
    const s = soundingFromForecast(lowland, 1);
    expect(s).toMatchObject({ source: 'model', id: 'gfs', lat: 50, lon: 14, time: REF + 3 * HOUR, refTime: REF, elevation: 100 });
    expect(s.levels.map((l) => l.pressure)).toEqual([975, 900, 850, 500]);
    expect(s.levels[0].temp).toBeCloseTo(291 - 273.15, 9);
    expect(s.levels[0].dewpoint).toBeCloseTo(dewpointFromRelativeHumidity(291 - 273.15, 50), 9);
    expect(s.levels[0]).toMatchObject({ height: 310, windDir: 270, windSpeed: 10 });
    // Saturated at step 0: the dew point is the temperature.
    expect(soundingFromForecast(lowland, 0).levels[2].dewpoint).toBeCloseTo(290 - 12 - 273.15, 9);
  });

  it('puts the surface at the terrain height\'s pressure on ln p against height, and leaves out the levels under it', () => {
    const s = soundingFromForecast(levels(), 0, point());
    // 1200 m lies between 900 hPa (1000 m) and 850 hPa (1500 m): ln p linear in height.
    const expected = Math.exp(Math.log(900) + (200 / 500) * Math.log(850 / 900));
    expect(s.levels[0].pressure).toBeCloseTo(expected, 9);
    expect(s.levels[0]).toMatchObject({ height: 1200, temp: 12, windDir: expect.closeTo(216.87, 2) as unknown, windSpeed: 5 });
    expect(s.levels[0].dewpoint).toBeCloseTo(7, 9);
    // 975 and 900 hPa are under the model's ground here.
    expect(s.levels.map((l) => l.pressure).slice(1)).toEqual([850, 500]);
    expect(s.elevation).toBe(1200);
    // Step 1 has no dew point but a relative humidity.
    expect(soundingFromForecast(levels(), 1, point()).levels[0].dewpoint).toBeCloseTo(dewpointFromRelativeHumidity(13, 40), 9);
  });

  it('below the lowest level, the surface comes from mean-sea-level pressure at 0 m', () => {
    const low = point();
    low.header.modelElevation = 100;
    const s = soundingFromForecast(levels(), 0, low);
    expect(s.levels[0].pressure).toBeCloseTo(Math.exp(Math.log(1013.25) + (100 / 300) * Math.log(975 / 1013.25)), 9);
    expect(s.levels).toHaveLength(5);
  });

  it('without a point forecast at that time, the pressure levels above the model\'s ground alone; a step it lacks is a RangeError', () => {
    const p = point();
    p.ts = [REF - HOUR];
    // 975 and 900 hPa (300 and 1000 m) are under the ground at 1200 m: the model's extrapolation.
    expect(soundingFromForecast(levels(), 0, p).levels.map((l) => l.pressure)).toEqual([850, 500]);
    expect(soundingFromForecast(levels(), 0).levels.map((l) => l.pressure)).toEqual([850, 500]);
    expect(() => soundingFromForecast(levels(), 2)).toThrow(RangeError);
  });
});
