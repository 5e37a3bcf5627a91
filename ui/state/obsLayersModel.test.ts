import { describe, expect, it } from 'vitest';
import { kmPerPixel, nearestFire } from './obsLayersModel.ts';

describe('obs layers picking', () => {
  it('a CSS pixel spans 156.5 km on the equator at zoom 0 and half that per zoom level', () => {
    expect(kmPerPixel(0, 0)).toBeCloseTo(156.543, 3);
    expect(kmPerPixel(0, 5)).toBeCloseTo(156.543 / 32, 3);
    expect(kmPerPixel(60, 0)).toBeCloseTo(156.543 / 2, 3);
  });
  it('names the nearest fire within the radius only', () => {
    const spots = [
      { lon: 10, lat: 0, time: 1, sensor: 'a', confidence: null, frpMw: null },
      { lon: 11, lat: 0, time: 2, sensor: 'b', confidence: null, frpMw: 3 },
    ];
    expect(nearestFire(spots, 10.8, 0, 50)?.sensor).toBe('b');
    expect(nearestFire(spots, 12, 0, 50)).toBeNull();
    expect(nearestFire([], 0, 0, 1e6)).toBeNull();
  });
});
