import { describe, expect, it } from 'vitest';
import { pointSet, shapeBuffers } from './vector.ts';

describe('vector shapes in lon/lat', () => {
  it('makes a quad per segment in its start point\'s colour, relative to the first point', () => {
    const b = shapeBuffers({
      lines: [{ points: [0, 0, 90, 0, 180, 0], colors: [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1], widthPx: 3 }],
      points: [],
      fills: [],
    });
    expect(b.origin).toEqual([0.5, 0.5]);
    const line = b.lines[0];
    expect(line.count).toBe(12);
    // Segment 2 runs from lon 90 (Mercator x 0.75) to 180 (x 1), relative to the origin.
    expect([...line.from.slice(12, 14)]).toEqual([0.25, 0]);
    expect([...line.to.slice(12, 14)]).toEqual([0.5, 0]);
    expect([...line.color.slice(0, 4)]).toEqual([1, 0, 0, 1]);
    expect([...line.color.slice(24, 28)]).toEqual([0, 1, 0, 1]);
  });

  it('triangulates concave and closed rings of a fill', () => {
    // An L: six corners, four triangles, whatever the winding; the closing point repeats the first.
    const l = [0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2, 0, 0];
    const b = shapeBuffers({ lines: [], points: [], fills: [{ rings: [l, [...l].reverse()], color: [1, 0, 0, 0.35] }] });
    expect(b.fills[0].count).toBe(24);
    // The triangles cover the L's area (3 square degrees) and not its notch: areas summed in Mercator.
    const pos = b.fills[0].pos;
    let area = 0;
    for (let i = 0; i < pos.length; i += 6) area += Math.abs((pos[i + 2] - pos[i]) * (pos[i + 5] - pos[i + 1]) - (pos[i + 4] - pos[i]) * (pos[i + 3] - pos[i + 1])) / 2;
    const degree = 1 / 360;
    expect(area / 2 / (degree * degree)).toBeCloseTo(3, 1);
  });

  it('fills each ring of a fill with triangles', () => {
    const b = shapeBuffers({ lines: [], points: [], fills: [{ rings: [[0, 0, 1, 0, 1, 1, 0, 1], [0, 0, 2, 0, 1, 1]], color: [1, 1, 1, 0.3] }] });
    // A square ring: 2 triangles; a triangle ring: 1.
    expect(b.fills[0].count).toBe(9);
  });

  it('hands the point sets to the point layer: colours as bytes, diameters', () => {
    const p = pointSet([
      { points: [10, 20, 11, 21], colors: [1, 0, 0, 1, 0, 0.5, 1, 0.5], radiusPx: 4 },
      { points: [-170, -5], colors: [0, 0, 0, 2], radiusPx: 1.5 },
    ]);
    expect([...p.lon]).toEqual([10, 11, -170]);
    expect([...p.lat]).toEqual([20, 21, -5]);
    expect([...p.color]).toEqual([255, 0, 0, 255, 0, 128, 255, 128, 0, 0, 0, 255]);
    expect([...p.size]).toEqual([8, 8, 3]);
  });
});
