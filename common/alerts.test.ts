import { describe, expect, it } from 'vitest';
import { alertProblem, cloudClass, directionOf, evaluateAlert, validateAlert, windFromDegrees, type Alert } from './alerts.ts';
import { HOUR_MS } from './time.ts';

const base: Alert = { lat: 50, lon: 14, name: 'Prague', product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 280 }] };
const withCond = (c: unknown): unknown => ({ ...base, conditions: [c] });

describe('alertProblem', () => {
  it.each([
    ['a valid alert', base, null],
    ['not an object', 3, 'not an object'],
    ['unknown field', { ...base, extra: 1 }, 'unknown field extra'],
    ['bad lat', { ...base, lat: 91 }, 'lat must be a number from -90 to 90'],
    ['bad lon', { ...base, lon: 'x' }, 'lon must be a number from -180 to 180'],
    ['empty name', { ...base, name: ' ' }, 'name is empty'],
    ['bad product', { ...base, product: 'a/b' }, 'product is not a product ident'],
    ['bad state', { ...base, state: 'on' }, 'unknown state "on"'],
    ['no conditions', { ...base, conditions: [] }, 'conditions must be a non-empty list'],
    ['duplicate type', { ...base, conditions: [{ type: 'temperature', min: 280 }, { type: 'temperature', max: 300 }] }, 'two temperature conditions'],
    ['unknown type', withCond({ type: 'fog' }), 'unknown condition type "fog"'],
    ['extra condition field', withCond({ type: 'temperature', min: 280, hours: 3 }), 'temperature has no field hours'],
    ['wind ok', withCond({ type: 'wind', min: 5, max: 20, directions: ['N', 'NW'] }), null],
    ['wind empty', withCond({ type: 'wind' }), 'wind needs a speed or directions'],
    ['wind min > max', withCond({ type: 'wind', min: 10, max: 5 }), 'wind min is above max'],
    ['wind bad direction', withCond({ type: 'wind', directions: ['NNE'] }), 'unknown direction "NNE"'],
    ['temperature out of range', withCond({ type: 'temperature', max: 20 }), 'temperature max must be a number from 150 to 350'],
    ['rainfall ok', withCond({ type: 'rainfall', min: 5, hours: 24 }), null],
    ['rainfall bad hours', withCond({ type: 'rainfall', min: 5, hours: 0 }), 'rainfall hours must be a whole number from 1 to 72'],
    ['cloudiness ok', withCond({ type: 'cloudiness', classes: ['SKC', 'FEW'] }), null],
    ['cloudiness none', withCond({ type: 'cloudiness', classes: [] }), 'cloud class must be a non-empty list'],
    ['cloudiness unknown', withCond({ type: 'cloudiness', classes: ['CLR'] }), 'unknown cloud class "CLR"'],
    ['freshSnow ok', withCond({ type: 'freshSnow', min: 10, hours: 24 }), null],
    ['freshSnow no min', withCond({ type: 'freshSnow', hours: 24 }), 'freshSnow min must be a number from 0 to 1000'],
    ['swell ok', withCond({ type: 'swell', min: 1.5, directions: ['W'] }), null],
    ['time ok', withCond({ type: 'time', weekdays: ['sat', 'sun'], fromHour: 8, toHour: 18 }), null],
    ['time bad weekday', withCond({ type: 'time', weekdays: ['sunday'], fromHour: 8, toHour: 18 }), 'unknown weekday "sunday"'],
    ['time empty range', withCond({ type: 'time', weekdays: ['mon'], fromHour: 8, toHour: 8 }), 'time range is empty'],
    ['time bad hour', withCond({ type: 'time', weekdays: ['mon'], fromHour: 24, toHour: 8 }), 'time fromHour must be a whole hour from 0 to 23'],
    ['bad offset', { ...base, utcOffsetMin: 1.5 }, 'utcOffsetMin must be whole minutes within ±14 h'],
  ])('%s', (_name, value, expected) => {
    expect(alertProblem(value)).toBe(expected);
  });

  it('validateAlert logs and answers null for an invalid one, a copy for a valid one', () => {
    const logged: string[] = [];
    expect(validateAlert({ ...base, state: 'x' }, (m) => logged.push(m))).toBeNull();
    expect(logged).toEqual(['Invalid alert: unknown state "x"']);
    expect(validateAlert(base)).toEqual(base);
  });
});

describe('helpers', () => {
  it.each([[0, 'N'], [22, 'N'], [23, 'NE'], [90, 'E'], [180, 'S'], [270, 'W'], [315, 'NW'], [350, 'N'], [-45, 'NW']])('directionOf(%d) = %s', (d, p) => {
    expect(directionOf(d)).toBe(p);
  });
  it('windFromDegrees: a wind blowing to the south comes from the north', () => {
    expect(windFromDegrees(0, -5)).toBeCloseTo(0);
    expect(windFromDegrees(-5, 0)).toBeCloseTo(90);
    expect(windFromDegrees(5, 0)).toBeCloseTo(270);
  });
  it.each([[0, 'SKC'], [6, 'SKC'], [10, 'FEW'], [30, 'FEW'], [40, 'SCT'], [60, 'BKN'], [90, 'BKN'], [95, 'OVC'], [100, 'OVC']])('cloudClass(%d) = %s', (p, c) => {
    expect(cloudClass(p)).toBe(c);
  });
});

describe('evaluateAlert', () => {
  const t0 = Date.UTC(2026, 0, 5, 0); // Monday 00 UTC
  const ts = Array.from({ length: 6 }, (_, i) => t0 + i * 3 * HOUR_MS); // 00 03 06 09 12 15
  const forecast = {
    ts,
    data: {
      wind_u: [0, 0, -10, -10, 3, null],
      wind_v: [-8, -8, 0, 0, 0, 0],
      temp: [270, 272, 275, 280, 285, 290],
      rain: [1, 1, 0, 0, 2, 0],
      clouds: [0, 50, 100, 20, 70, 100],
      waves: [1, 2, 3, 2, 1, 0.5],
    },
  };
  const alert = (conditions: Alert['conditions'], extra: Partial<Alert> = {}): Alert => ({ ...base, lon: 0, conditions, ...extra });
  it.each<[string, Alert['conditions'], number[]]>([
    ['wind from the north >= 5', [{ type: 'wind', min: 5, directions: ['N'] }], [0, 1]],
    ['wind from the east', [{ type: 'wind', directions: ['E'] }], [2, 3]],
    ['wind max 4 (null is no data)', [{ type: 'wind', max: 4 }], [4]],
    ['temperature range', [{ type: 'temperature', min: 275, max: 285 }], [2, 3, 4]],
    ['rainfall over 6 h 3.5 to 5 mm', [{ type: 'rainfall', min: 3.5, max: 5, hours: 6 }], [1]],
    ['rainfall over 3 h >= 3 mm', [{ type: 'rainfall', min: 3, hours: 3 }], [1, 4]],
    ['cloudiness', [{ type: 'cloudiness', classes: ['SKC', 'OVC'] }], [0, 2, 5]],
    ['fresh snow', [{ type: 'freshSnow', min: 4, hours: 6 }], [1]],
    ['swell >= 2', [{ type: 'swell', min: 2 }], [1, 2, 3]],
    ['swell with directions needs direction data', [{ type: 'swell', min: 2, directions: ['W'] }], []],
    ['time 06-12 Monday', [{ type: 'time', weekdays: ['mon'], fromHour: 6, toHour: 12 }], [2, 3]],
    ['time wrapping 12-03', [{ type: 'time', weekdays: ['mon'], fromHour: 12, toHour: 3 }], [0, 4, 5]],
    ['time Tuesday', [{ type: 'time', weekdays: ['tue'], fromHour: 0, toHour: 24 }], []],
    ['all must hold', [{ type: 'temperature', min: 275 }, { type: 'cloudiness', classes: ['OVC'] }], [2, 5]],
  ])('%s', (_name, conditions, expected) => {
    expect(evaluateAlert(alert(conditions), forecast)).toEqual(expected.map((i) => ts[i]));
  });
  it('uses the local time of the offset', () => {
    // UTC+3: 03 UTC is 06 local
    expect(evaluateAlert(alert([{ type: 'time', weekdays: ['mon'], fromHour: 6, toHour: 7 }], { utcOffsetMin: 180 }), forecast)).toEqual([ts[1]]);
    // lon 45 -> solar offset +3 h
    expect(evaluateAlert(alert([{ type: 'time', weekdays: ['mon'], fromHour: 6, toHour: 7 }], { lon: 45 }), forecast)).toEqual([ts[1]]);
  });
  it('a suspended alert never triggers', () => {
    expect(evaluateAlert(alert([{ type: 'temperature', min: 0 + 150 }], { state: 'suspended' }), forecast)).toEqual([]);
  });
});
