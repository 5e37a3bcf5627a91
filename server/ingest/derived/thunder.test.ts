import { describe, expect, it } from 'vitest';
import { rompsProxy, thunderFrom } from './thunder.ts';

describe('Romps et al. (2014) CAPE x P lightning proxy', () => {
  it('is CAPE times the precipitation rate in SI units (W/m²)', () => {
    // 1000 J/kg and 3.6 mm/h (1e-3 kg m-2 s-1): 1 W/m².
    expect(rompsProxy(1000, 3.6)).toBeCloseTo(1, 12);
    expect(rompsProxy(2500, 0)).toBe(0);
    expect(rompsProxy(0, 20)).toBe(0);
  });

  it('works on fields', () => {
    expect([...thunderFrom(Float32Array.of(1000, 500), Float32Array.of(3.6, 7.2))]).toEqual([1, 1]);
  });
});
