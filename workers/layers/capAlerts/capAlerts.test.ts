import { describe, expect, it } from 'vitest';
import { alertAreasAt, CAP_FILL_ALPHA, CAP_OUTLINE_PX, capAlertShapes, readAlertAreas } from './capAlerts.ts';

describe('warning areas as shapes', () => {
  it('fills each severity once, the most severe last, and outlines every ring in its colour', () => {
    const ring = (x: number) => [x, 0, x + 1, 0, x + 1, 1, x, 1, x, 0];
    const shapes = capAlertShapes([
      { id: 'a', severity: 'Severe', event: 'flood', areaDesc: 'A', rings: [ring(0)] },
      { id: 'b', severity: 'Minor', event: 'frost', areaDesc: 'B', rings: [ring(2), ring(4)] },
    ]);
    expect(shapes.fills.map((f) => f.color)).toEqual([[0, 128 / 255, 0, CAP_FILL_ALPHA], [1, 165 / 255, 0, CAP_FILL_ALPHA]]);
    expect(shapes.fills.map((f) => f.rings.length)).toEqual([2, 1]);
    expect(shapes.lines).toHaveLength(3);
    expect(shapes.lines[2]).toEqual({ points: ring(0), colors: Array(5).fill([1, 165 / 255, 0, 1]).flat(), widthPx: CAP_OUTLINE_PX });
    expect(capAlertShapes([])).toEqual({ lines: [], points: [], fills: [] });
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
