import { describe, expect, it } from 'vitest';
import { PRODUCTS } from './catalogue/products.ts';
import {
  ISOLINE_SPACING, ISOLINE_TYPES, IsolineError, isolineLabel, isolineLevels, isolineMetric, isolineSource, productIsolines,
} from './isolines.ts';

const displays = (levels: { display: number }[]) => levels.map((l) => l.display);
const heavies = (levels: { display: number; heavy: boolean }[]) => levels.filter((l) => l.heavy).map((l) => l.display);

describe('isolines (SPEC §3 isolinesType)', () => {
  it('has a spacing for every unit of each type\'s metric, and no other', () => {
    for (const type of ISOLINE_TYPES) {
      expect(Object.keys(ISOLINE_SPACING[type]).sort()).toEqual([...isolineMetric(type).units].sort());
    }
  });

  it.each<[string, string, number, number, number[], number[]]>([
    // type, unit, min, max (base unit), displayed levels, heavier ones
    ['pressure', 'hPa', 99_100, 101_300, [992, 996, 1000, 1004, 1008, 1012], [1000]],
    ['pressure', 'inHg', 100_000, 101_700, [29.6, 29.7, 29.8, 29.9, 30], [30]],
    ['pressure', 'mmHg', 99_000, 101_000, [744, 747, 750, 753, 756], [750]],
    ['gh', 'm', 5400, 5600, [5400, 5440, 5480, 5520, 5560, 5600], [5400, 5600]],
    ['gh', 'ft', 1500, 1700, [5000, 5100, 5200, 5300, 5400, 5500], [5000, 5500]],
    ['temp', '°C', 268.15, 278.15, [-4, -2, 0, 2, 4], [0]],
    ['temp', '°F', 268.15, 278.15, [24, 28, 32, 36, 40], [32]],
    ['deg0', 'm', 900, 2100, [1000, 1250, 1500, 1750, 2000], [1000, 2000]],
    ['deg0', 'ft', 900, 2100, [3000, 4000, 5000, 6000], [5000]],
  ])('%s in %s over %d..%d', (type, unit, min, max, expected, heavy) => {
    const levels = isolineLevels(type as (typeof ISOLINE_TYPES)[number], unit, min, max);
    expect(displays(levels)).toEqual(expected);
    expect(heavies(levels)).toEqual(heavy);
    expect(displays(isolineLevels(type as (typeof ISOLINE_TYPES)[number], unit, max, min))).toEqual(expected);
  });

  it('gives each level in the base unit through the metric\'s conversion (SPEC §9 constants)', () => {
    const [inHg] = isolineLevels('pressure', 'inHg', 101_500, 101_600);
    expect(inHg.display).toBe(30);
    expect(inHg.value).toBeCloseTo(30 * 3386.389, 6);
    const mmHg = isolineLevels('pressure', 'mmHg', 99_900, 100_100);
    expect(mmHg.map((l) => l.value)).toEqual([750 * 133.322].map((v) => expect.closeTo(v, 6)));
    expect(isolineLevels('temp', '°F', 273, 273.3).map((l) => l.value)).toEqual([expect.closeTo(273.15, 9)]);
    expect(isolineLevels('gh', 'ft', 1520, 1540)[0].value).toBeCloseTo(5000 / 3.28, 9);
    expect(isolineLevels('pressure', 'hPa', 101_100, 101_300)[0].value).toBe(101_200);
  });

  it('labels a level in the user\'s unit', () => {
    const label = (type: (typeof ISOLINE_TYPES)[number], unit: string, min: number, max: number) =>
      isolineLevels(type, unit, min, max).map((l) => isolineLabel(type, unit, l));
    expect(label('pressure', 'hPa', 101_100, 101_300)).toEqual(['1012']);
    expect(label('pressure', 'inHg', 101_100, 101_300)).toEqual(['29.9']);
    expect(label('temp', '°C', 270, 274)).toEqual(['-2°C', '0°C']);
    expect(label('temp', '°F', 272, 274)).toEqual(['32°F']);
    expect(label('gh', 'm', 5500, 5530)).toEqual(['5520']);
  });

  it('refuses unknown units, a range that is not finite and a range of too many lines', () => {
    expect(() => isolineLevels('pressure', 'psi', 0, 1)).toThrow(IsolineError);
    expect(() => isolineLevels('pressure', 'psi', 0, 1)).toThrow(/hPa, inHg, mmHg/);
    expect(() => isolineLevels('temp', '°C', Number.NaN, 300)).toThrow(/finite/);
    expect(() => isolineLevels('gh', 'm', 0, 1e6)).toThrow(/at most/);
  });

  it.each<[(typeof ISOLINE_TYPES)[number], string, string, string]>([
    ['pressure', 'surface', 'pressure', 'surface'],
    ['pressure', '850h', 'pressure', 'surface'],
    ['gh', 'surface', 'gh', '500h'],
    ['gh', '850h', 'gh', '850h'],
    ['temp', '850h', 'temp', '850h'],
    ['temp', '100m', 'temp', 'surface'],
    ['deg0', '500h', 'deg0', 'surface'],
  ])('%s at map level %s contours the %s tiles at %s', (type, mapLevel, file, level) => {
    const source = isolineSource(type, mapLevel);
    expect([source.file, source.level]).toEqual([file, level]);
    expect(source.metric).toBe(isolineMetric(type));
  });

  it('offers the types of the product\'s model definition, and every product lists known types only', () => {
    expect(productIsolines(PRODUCTS.gfs)).toEqual(['pressure', 'gh', 'temp', 'deg0']);
    expect(productIsolines(PRODUCTS.demo)).toEqual(['pressure', 'temp']);
    expect(productIsolines(PRODUCTS.gfsWave)).toEqual([]);
    for (const product of Object.values(PRODUCTS)) expect(productIsolines(product)).toEqual(product.isolines);
  });
});
