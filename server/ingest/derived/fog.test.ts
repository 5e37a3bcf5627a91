import { describe, expect, it } from 'vitest';
import { fogClass } from '../../../common/catalogue/classes.ts';
import { fogFrom, fogValue, fslVisibility } from './fog.ts';

describe('fog from the FSL visibility (Doran et al. 1999)', () => {
  it('is 6000 (T - Td) / RH^1.75 statute miles', () => {
    // T - Td = 1 K at RH 90 %: 6000 / 90^1.75 = 2.1289 mi = 3426 m.
    expect(fslVisibility(10, 9, 90)).toBeCloseTo(6000 / 90 ** 1.75 * 1609.344, 3);
    expect(fslVisibility(10, 10, 100)).toBe(0);
  });

  it('puts a visibility below 1 km in SPEC §9 fog, and below 0 °C in rime fog', () => {
    expect(fogClass(fogValue(3000, 10))).toBe('none');
    expect(fogClass(fogValue(1001, 10))).toBe('none');
    expect(fogClass(fogValue(999, 10))).toBe('fog');
    expect(fogClass(fogValue(200, 10))).toBe('fog');
    expect(fogClass(fogValue(200, -3))).toBe('rimeFog');
    expect(fogClass(fogValue(3000, -3))).toBe('none');
  });

  it('works on fields', () => {
    const v = fogFrom(Float32Array.of(280, 270), Float32Array.of(280, 270), Float32Array.of(100, 100));
    expect([...v]).toEqual([1, 2]);
  });
});
