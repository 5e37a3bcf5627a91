import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../time.ts';
import { ACCUMULATION_SOURCES, AC_RANGES, fitAccumulation, isValidAcRange } from './accumulations.ts';
import { colorLayerOf, OVERLAYS, particleLayerOf } from './overlays.ts';
import { FILE_VARIABLES } from './variables.ts';
import { PRODUCTS } from './products.ts';

const H = HOUR_MS;
const START = Date.UTC(2026, 10, 27, 0);
/** A 240-hour calendar (SPEC §9 ECMWF forecast size). */
const calendar = { start: START, end: START + 240 * H };

describe('fitAccumulation (SPEC §4 Accumulation, SPEC §9 minimum range 12 h and end offset 12 h)', () => {
  it.each([
    ['a range that fits is kept', 0, 24, 0, 24],
    ['a range that ends at the end is kept', 216, 24, 216, 24],
    ['a range past the end is shortened to end there', 200, 72, 200, 40],
    ['with exactly 12 h left the range is 12 h', 228, 24, 228, 12],
    ['with fewer than 12 h left, timestamp is end minus 12 h and acRange 12', 235, 24, 228, 12],
    ['at the very end too', 240, 240, 228, 12],
    ['a range below the minimum is raised to 12 h', 0, 3, 0, 12],
  ])('%s: +%i h, %i h -> +%i h, %i h', (_what, t, range, fitT, fitRange) => {
    expect(fitAccumulation({ timestamp: START + t * H, acRange: range }, calendar)).toEqual({ timestamp: START + fitT * H, acRange: fitRange });
  });

  it('a calendar shorter than 12 h keeps its start and gives what it has', () => {
    expect(fitAccumulation({ timestamp: START + 3 * H, acRange: 24 }, { start: START, end: START + 6 * H })).toEqual({ timestamp: START, acRange: 6 });
  });
});

describe('accumulation overlays', () => {
  const accumulations = OVERLAYS.filter((o) => o.accumulation);

  it('are rainAccu, snowAccu and gustAccu, drawn by the accumulations renderer, without particles, each with a source', () => {
    expect(accumulations.map((o) => o.ident)).toEqual(['rainAccu', 'snowAccu', 'gustAccu']);
    for (const overlay of accumulations) {
      expect(colorLayerOf(overlay).renderer).toBe('accumulations');
      expect(overlay.hideParticles).toBe(true);
      expect(particleLayerOf(overlay)).toBeUndefined();
      const source = ACCUMULATION_SOURCES[colorLayerOf(overlay).file];
      expect(FILE_VARIABLES[source.source], overlay.ident).toBeDefined();
    }
  });

  it('the hide-particles flag removes a particle layer the overlay lists', () => {
    const wind = OVERLAYS.find((o) => o.ident === 'wind')!;
    expect(particleLayerOf(wind)?.renderer).toBe('particles');
    expect(particleLayerOf({ ...wind, hideParticles: true })).toBeUndefined();
  });

  it('are offered by the products that support accumulations only', () => {
    for (const product of Object.values(PRODUCTS)) {
      const offered = product.overlays.filter((o) => accumulations.some((a) => a.ident === o));
      if (!product.accumulations) expect(offered, product.ident).toEqual([]);
      else expect(offered, product.ident).toContain('rainAccu');
    }
  });

  it('offers the ranges of SPEC §3/§4 (next 12 h, 24 h, 3, 5 and 10 days), each one the tile route accepts', () => {
    expect(AC_RANGES).toEqual([12, 24, 72, 120, 240]);
    expect(AC_RANGES.every(isValidAcRange)).toBe(true);
    expect([11, 12.5, 385, Number.NaN].some(isValidAcRange)).toBe(false);
  });
});
