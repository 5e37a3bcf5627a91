import { describe, expect, it } from 'vitest';
import { CollisionPlane } from './collisionPlane.ts';

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
});
