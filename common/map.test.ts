import { describe, expect, it } from 'vitest';
import { constrainView, latFromMercY, lonLatToScreen, mercX, mercY, screenToLonLat, viewBounds, worldSize } from './map.ts';
import { hourFormatFor, unitSystemFor } from './locale.ts';

describe('Web Mercator', () => {
  it('projects and inverts', () => {
    expect(mercX(-180)).toBe(0);
    expect(mercY(0)).toBeCloseTo(0.5, 12);
    expect(mercY(85.0511287798066)).toBeCloseTo(0, 9);
    for (const lat of [-80, -45, 0, 12.3, 60]) expect(latFromMercY(mercY(lat))).toBeCloseTo(lat, 9);
  });

  it('converts screen points and back, choosing the world copy near the centre', () => {
    const view = { lon: 170, lat: 40, zoom: 4, width: 800, height: 600 };
    const p = screenToLonLat(view, 700, 100);
    expect(p.lon).toBeGreaterThan(180);
    const back = lonLatToScreen(view, p.lon - 360, p.lat);
    expect(back.x).toBeCloseTo(700, 6);
    expect(back.y).toBeCloseTo(100, 6);
    const b = viewBounds(view);
    expect(b.east - b.west).toBeCloseTo((800 / worldSize(4)) * 360, 9);
  });

  it('keeps the world filling the view vertically and wraps longitude', () => {
    const v = constrainView({ lon: 200, lat: 89, zoom: 3, width: 1000, height: 800 });
    expect(v.lon).toBeCloseTo(-160, 9);
    expect(mercY(v.lat)).toBeCloseTo(400 / worldSize(3), 9);
  });
});

describe('country defaults (SPEC §9)', () => {
  it.each([['us', '12h', 'imperial'], ['gb', '12h', 'metric'], ['my', '12h', 'imperial'], ['lr', '24h', 'imperial'], ['cz', '24h', 'metric'], ['', '24h', 'metric']])(
    '%s uses %s and %s', (cc, hours, units) => {
      expect(hourFormatFor(cc)).toBe(hours);
      expect(unitSystemFor(cc)).toBe(units);
    });
});
