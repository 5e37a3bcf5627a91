import { describe, expect, it } from 'vitest';
import type { StormDetail } from '../../../common/api/storms.ts';
import { CATEGORY_COLORS } from '../../../common/tropical/category.ts';
import { stormShapes } from './stormShapes.ts';

const fix = (lon: number, lat: number, windKt: number) => ({ time: 0, lat, lon, windKt, pressureHpa: null, type: 'TY' });

const storm = (track: ReturnType<typeof fix>[], withForecast: boolean): StormDetail => ({
  storm: {
    id: 'wp192014', basin: 'WP', name: 'TEST', source: 'jtwc', active: true, category: 'H5', maxWindKt: 155, minPressureHpa: null,
    superTyphoon: true, start: 0, last: track[track.length - 1],
  },
  track,
  forecast: withForecast ? { issued: 0, points: [{ time: 0, hour: 0, lat: 20, lon: 179, windKt: 70 }, { time: 1, hour: 12, lat: 21, lon: -179, windKt: 40 }] } : null,
  cone: withForecast ? { season: 2023, rings: [[179, 20, 181, 20, 180, 21]] } : null,
  attribution: '',
});

describe('storm shapes', () => {
  it('colours each fix by its Saffir-Simpson class and keeps longitudes continuous', () => {
    const shapes = stormShapes([storm([fix(170, 15, 30), fix(178, 16, 100), fix(-178, 17, 140)], false)]);
    expect(shapes.lines[0].points).toEqual([170, 15, 178, 16, 182, 17]);
    const color = (i: number) => shapes.lines[0].colors.slice(4 * i, 4 * i + 3).map((c) => Math.round(c * 255));
    expect(color(0)).toEqual([...CATEGORY_COLORS.TD]);
    expect(color(1)).toEqual([...CATEGORY_COLORS.H3]);
    expect(color(2)).toEqual([...CATEGORY_COLORS.H5]);
    expect(shapes.points[0].points).toHaveLength(6);
    expect(shapes.fills).toEqual([]);
  });

  it('adds the forecast line and points and the cone fill', () => {
    const shapes = stormShapes([storm([fix(170, 15, 30), fix(178, 16, 100)], true)]);
    expect(shapes.lines).toHaveLength(2);
    expect(shapes.lines[1].points).toEqual([179, 20, 181, 21]);
    expect(shapes.fills).toHaveLength(1);
    expect(shapes.fills[0].color[3]).toBeLessThan(0.5);
  });
});
