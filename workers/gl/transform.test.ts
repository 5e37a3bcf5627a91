import { describe, expect, it } from 'vitest';
import { frameTransform, isPanOnly, panShift, pixelRatioFor } from './transform.ts';

describe('frame transform', () => {
  it('caps the pixel ratio at 2 (SPEC §9)', () => {
    expect(pixelRatioFor(3)).toBe(2);
    expect(pixelRatioFor(0)).toBe(1);
    const t = frameTransform({ lon: 0, lat: 0, zoom: 3, width: 640, height: 360 }, 3);
    expect([t.width, t.height, t.worldPx]).toEqual([1280, 720, 4096]);
  });

  it('lists the world copies a view overlaps', () => {
    expect(frameTransform({ lon: 0, lat: 0, zoom: 5, width: 800, height: 600 }, 1).copies).toEqual([0]);
    expect(frameTransform({ lon: 179, lat: 0, zoom: 5, width: 800, height: 600 }, 1).copies).toEqual([0, 1]);
    expect(frameTransform({ lon: 0, lat: 0, zoom: 3, width: 2400, height: 600 }, 1).copies).toEqual([-1, 0, 1]);
  });

  it('measures pan shifts in device pixels, across the antimeridian too', () => {
    const a = frameTransform({ lon: 179.9, lat: 10, zoom: 6, width: 800, height: 600 }, 2);
    const b = frameTransform({ lon: -179.9, lat: 10, zoom: 6, width: 800, height: 600 }, 2);
    expect(isPanOnly(a, b)).toBe(true);
    const [dx, dy] = panShift(a, b);
    expect(dx).toBeCloseTo(-(0.2 / 360) * b.worldPx, 6);
    expect(dy).toBeCloseTo(0, 9);
    const c = frameTransform({ lon: -179.9, lat: 10, zoom: 6.5, width: 800, height: 600 }, 2);
    expect(isPanOnly(b, c)).toBe(false);
  });
});
