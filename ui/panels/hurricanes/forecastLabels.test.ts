import { describe, expect, it } from 'vitest';
import { boxesOverlap } from '../../labels/collisionPlane.ts';
import { candidateBoxes, placeTimes } from './forecastLabels.ts';

const SIZE = { width: 60, height: 14 };

describe('storm forecast times on the collision plane', () => {
  it('puts a time right of its point when nothing is there', () => {
    const [box] = placeTimes([{ x: 100, y: 100, ...SIZE }], () => false);
    expect(box).toEqual({ left: 108, right: 168, top: 93, bottom: 107 });
  });

  it('moves a time left, then above, then below, of a city label in the way, and leaves it out when all four are taken', () => {
    const city = { left: 105, right: 200, top: 90, bottom: 110 };
    const blockedBy = (...boxes: { left: number; right: number; top: number; bottom: number }[]) => (b: typeof city) => boxes.some((o) => boxesOverlap(o, b));
    const [left] = placeTimes([{ x: 100, y: 100, ...SIZE }], blockedBy(city));
    expect(left).toEqual({ left: 32, right: 92, top: 93, bottom: 107 });
    const wide = { left: 0, right: 200, top: 93, bottom: 107.5 };
    const [above] = placeTimes([{ x: 100, y: 100, ...SIZE }], blockedBy(wide));
    expect(above).toEqual({ left: 70, right: 130, top: 78, bottom: 92 });
    const [below] = placeTimes([{ x: 100, y: 100, ...SIZE }], blockedBy(wide, { left: 0, right: 200, top: 70, bottom: 92 }));
    expect(below).toEqual({ left: 70, right: 130, top: 108, bottom: 122 });
    const [none] = placeTimes([{ x: 100, y: 100, ...SIZE }], blockedBy({ left: 0, right: 300, top: 0, bottom: 300 }));
    expect(none).toBeNull();
  });

  it('keeps times clear of each other: close points take other sides, and a point off the view has none', () => {
    const boxes = placeTimes([{ x: 100, y: 100, ...SIZE }, null, { x: 110, y: 104, ...SIZE }, { x: 104, y: 96, ...SIZE }], () => false);
    expect(boxes[1]).toBeNull();
    const shown = boxes.filter((b) => b !== null);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) expect(boxesOverlap(shown[i], shown[j])).toBe(false);
    // The second time could not go right (the first is there): it went to another candidate.
    expect(candidateBoxes({ x: 110, y: 104, ...SIZE })).toContainEqual(boxes[2]);
    expect(boxes[2]).not.toEqual(candidateBoxes({ x: 110, y: 104, ...SIZE })[0]);
  });
});
