import { describe, expect, it } from 'vitest';
import { CollisionPlane, placeNameKey } from './collisionPlane.ts';

const box = (left: number, top: number, w = 10, h = 10) => ({ left, top, right: left + w, bottom: top + h });

describe('label collision plane', () => {
  it('keeps isoline labels clear of city labels, not city labels of isoline labels', () => {
    const plane = new CollisionPlane();
    plane.publish('cities', 5, [box(100, 100)]);
    plane.publish('isolines', 5, [box(200, 200)]);
    expect(plane.blocked('isolines', 5, box(105, 105))).toBe(true);
    expect(plane.blocked('isolines', 5, box(111, 111))).toBe(false);
    expect(plane.blocked('cities', 5, box(205, 205))).toBe(false);
    // Base-map names keep clear of both.
    expect(plane.blocked('basemap', 5, box(205, 205))).toBe(true);
  });

  it('compares boxes drawn for the same zoom only', () => {
    const plane = new CollisionPlane();
    plane.publish('cities', 5, [box(100, 100)]);
    expect(plane.blocked('isolines', 6, box(100, 100))).toBe(false);
  });

  it('tells the others when a kind\'s boxes change, not when they stay', () => {
    const plane = new CollisionPlane();
    const told: string[] = [];
    plane.subscribe((kind) => told.push(kind));
    plane.publish('cities', 5, [box(1, 1)]);
    plane.publish('cities', 5, [box(1, 1)]);
    plane.publish('cities', 5, [box(2, 1)]);
    expect(told).toEqual(['cities', 'cities']);
  });

  it('says when a label ranked above names the same place: one name without case and accents, within 25 km', () => {
    const plane = new CollisionPlane();
    plane.publish('cities', 11, [{ ...box(100, 100), place: { name: 'Zürich', lon: 8.54, lat: 47.37 } }]);
    expect(plane.named('basemap', ['Zurich'], 8.55, 47.38)).toBe(true);
    expect(plane.named('basemap', ['Zurigo', 'Zürich'], 8.5, 47.4)).toBe(true);
    // Another name, or the same name 50 km away: another place.
    expect(plane.named('basemap', ['Winterthur'], 8.54, 47.37)).toBe(false);
    expect(plane.named('basemap', ['Zürich'], 8.54, 47.82)).toBe(false);
    // City labels are first: nothing above them names anything.
    plane.publish('basemap', 11, [{ ...box(300, 300), place: { name: 'Baden', lon: 8.3, lat: 47.47 } }]);
    expect(plane.named('cities', ['Baden'], 8.3, 47.47)).toBe(false);
    expect(placeNameKey(' São Paulo ')).toBe('sao paulo');
  });
});
