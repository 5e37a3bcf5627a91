import { describe, expect, it } from 'vitest';
import { mercX, mercY } from '../../../common/map.ts';
import { alertAreasAt, readAlertAreas } from './capAlerts.ts';
import { polygonMesh } from './polygonMesh.ts';

describe('polygonMesh', () => {
  it('fills a ring with earcut triangles covering its area, premultiplied, and outlines it', () => {
    // An L-shaped hexagon of 3 unit squares (lon/lat near the equator).
    const ring = [0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2, 0, 0];
    const mesh = polygonMesh([{ rings: [ring], rgb: [255, 0, 0] }], 0.5);
    expect(mesh.fill.count).toBe(4 * 3); // n - 2 triangles for 6 vertices
    let area = 0;
    const p = mesh.fill.position;
    for (let t = 0; t < mesh.fill.count; t += 3) {
      const [ax, ay, bx, by, cx, cy] = [p[2 * t], p[2 * t + 1], p[2 * t + 2], p[2 * t + 3], p[2 * t + 4], p[2 * t + 5]];
      area += Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
    }
    const square = (mercX(1) - mercX(0)) * (mercY(0) - mercY(1));
    expect(area / square).toBeCloseTo(3, 3);
    expect(Array.from(mesh.fill.colour.slice(0, 4))).toEqual([0.5, 0, 0, 0.5]);
    expect(mesh.origin).toEqual([mercX(0), mercY(0)]);
    expect(mesh.outlines).toHaveLength(1);
    expect(mesh.outlines[0].set.lines).toEqual([{ start: 0, count: 7, closed: true, heavy: false, label: '' }]);
  });
});

describe('warning areas for the map and the picker', () => {
  const geojson = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]]] }, properties: { id: 'a', severity: 'Minor', event: 'wind', areaDesc: 'A' } },
      { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]]]] }, properties: { id: 'b', severity: 'Severe', event: 'flood', areaDesc: 'B' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { id: 'c', severity: 'Severe' } },
    ],
  };
  it('reads the published areas and finds those under a place, most severe first, across the dateline wrap', () => {
    const areas = readAlertAreas(geojson);
    expect(areas.map((a) => a.id)).toEqual(['a', 'b']);
    expect(alertAreasAt(areas, 1.5, 1.5).map((a) => a.id)).toEqual(['b', 'a']);
    expect(alertAreasAt(areas, 0.5 + 360, 0.5).map((a) => a.id)).toEqual(['a']);
    expect(alertAreasAt(areas, 5, 5)).toEqual([]);
    expect(() => readAlertAreas({})).toThrow(/not a FeatureCollection/);
  });
});
