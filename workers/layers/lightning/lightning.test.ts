import { describe, expect, it } from 'vitest';
import { flashColor, flashMarks } from './lightning.ts';

describe('lightning marks', () => {
  it('fade from white-yellow to dark red and from opaque to 35 % over the hour', () => {
    expect(flashColor(0)).toEqual([255, 255, 190, 255]);
    expect(flashColor(1)).toEqual([170, 20, 20, 89]);
    expect(flashColor(2)).toEqual(flashColor(1));
    // Monotonic: older is never brighter nor more opaque.
    let previous = flashColor(0);
    for (let s = 0.01; s <= 1; s += 0.01) {
      const c = flashColor(s);
      expect(c[1]).toBeLessThanOrEqual(previous[1]);
      expect(c[3]).toBeLessThanOrEqual(previous[3]);
      previous = c;
    }
  });

  it('one mark per flash, smaller with age', () => {
    const marks = flashMarks({
      baseTime: 0, lon: Float32Array.of(-60, -70), lat: Float32Array.of(-30, 10), ageSeconds: Float32Array.of(3600, 0),
      energyFj: Float32Array.of(1, 1), areaKm2: Float32Array.of(1, 1), quality: Uint8Array.of(0, 0),
    });
    expect(marks.lon).toEqual(Float32Array.of(-60, -70));
    expect([...marks.size]).toEqual([6, 11]);
    expect([...marks.color.subarray(4)]).toEqual([255, 255, 190, 255]);
  });
});
