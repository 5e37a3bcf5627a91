import { describe, expect, it } from 'vitest';
import {
  BEAUFORT_THRESHOLDS_MS, METRICS, beaufort, beaufortToMs, convert, convertBack, dbzToMmh, defaultUnit, formatValue, mmhToDbz,
} from './metrics.ts';

describe('metrics and units (SPEC §9)', () => {
  it.each<[string, string, number, number]>([
    ['wind', 'kt', 10, 19.43844],
    ['wind', 'km/h', 10, 36],
    ['wind', 'mph', 10, 22.36936],
    ['wind', 'm/s', 10, 10],
    ['temp', '°C', 273.15, 0],
    ['temp', '°F', 273.15, 32],
    ['temp', '°F', 373.15, 212],
    ['pressure', 'hPa', 101325, 1013.25],
    ['pressure', 'mmHg', 133.322, 1],
    ['pressure', 'inHg', 3386.389, 1],
    ['rain', 'in/h', 10, 0.394],
    ['altitude', 'ft', 1000, 3280],
    ['snow', 'in', 10, 3.9],
    ['distance', 'mi', 1609.344, 1],
    ['distance', 'NM', 1852, 1],
    ['area', 'acres', 2, 494.21],
  ])('%s: base value to %s', (metric, unit, base, expected) => {
    expect(convert(METRICS[metric], unit, base)).toBeCloseTo(expected, 6);
    expect(convertBack(METRICS[metric], unit, expected)).toBeCloseTo(base, 6);
  });

  it('Beaufort forces from the SPEC thresholds', () => {
    expect(BEAUFORT_THRESHOLDS_MS).toHaveLength(12);
    const cases: [number, number][] = [[0, 0], [0.29, 0], [0.3, 1], [1.5, 2], [3.3, 3], [5.4, 3], [5.5, 4], [8, 5], [10.8, 6], [13.9, 7], [17.2, 8], [20.7, 9], [24.5, 10], [28.4, 11], [32.6, 12], [60, 12]];
    for (const [ms, force] of cases) expect(beaufort(ms)).toBe(force);
    for (let f = 0; f <= 12; f++) expect(beaufort(beaufortToMs(f))).toBe(f);
  });

  it('dBZ and mm/h with the Z-R power 1.6', () => {
    expect(dbzToMmh(mmhToDbz(5))).toBeCloseTo(5, 10);
    expect(dbzToMmh(23)).toBeCloseTo(1, 0);
  });

  it('an unknown unit logs an error and returns 0 (SPEC §5)', () => {
    const errors: Error[] = [];
    expect(convert(METRICS.wind, 'furlong/fortnight', 10, (e) => errors.push(e))).toBe(0);
    expect(errors[0].message).toMatch(/Unknown unit "furlong\/fortnight"/);
  });

  it('imperial default is the second unit (SPEC §3)', () => {
    expect(defaultUnit(METRICS.temp, 'metric')).toBe('°C');
    expect(defaultUnit(METRICS.temp, 'imperial')).toBe('°F');
    expect(defaultUnit(METRICS.wind, 'imperial')).toBe('mph');
    expect(defaultUnit(METRICS.clouds, 'imperial')).toBe('%');
  });

  it('formats with the unit precision and a degree sign for temperatures', () => {
    expect(formatValue(METRICS.temp, '°C', 293.4)).toBe('20°C');
    expect(formatValue(METRICS.temp, '°C', 272.9)).toBe('0°C');
    expect(formatValue(METRICS.wind, 'kt', 10)).toBe('19 kt');
    expect(formatValue(METRICS.pressure, 'inHg', 101325)).toBe('29.92 inHg');
    expect(formatValue(METRICS.wind, 'kt', NaN)).toBe('—');
    expect(formatValue(METRICS.pm, 'µg/m³', 20.69)).toBe('21 µg/m³');
    // Aerosol optical depth has no unit to show: the number alone.
    expect(formatValue(METRICS.aod, 'AOD', 0.2188)).toBe('0.22');
  });

  it('every unit converts back to where it started and has ascending legend lines', () => {
    for (const metric of Object.values(METRICS)) {
      expect(metric.units.length).toBeGreaterThan(0);
      for (const unit of metric.units) {
        const def = metric.conv[unit];
        expect(def, `${metric.ident} ${unit}`).toBeDefined();
        if (unit !== 'bft') expect(def.from(def.to(12.5))).toBeCloseTo(12.5, 9);
        expect([...def.legend]).toEqual([...def.legend].sort((a, b) => a - b));
      }
    }
  });
});
