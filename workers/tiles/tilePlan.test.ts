import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../common/time.ts';
import { tileAt } from '../../common/tiling.ts';
import { planFor, planSteps, planTiles, sameRange, tilesAt, uniqueTiles } from './tilePlan.ts';

const T0 = Date.UTC(2026, 10, 27, 0);
const calendar = { refTime: T0, timestamps: [T0, T0 + 3 * HOUR_MS, T0 + 6 * HOUR_MS], start: T0, end: T0 + 6 * HOUR_MS };
const view = { lon: 14.4, lat: 50.1, zoom: 5, width: 1280, height: 720 };
const key = (file: string, step: number, { z, x, y }: { z: number; x: number; y: number }) => `${file}@${(step - T0) / HOUR_MS}h/${z}/${x}/${y}`;

describe('tile plan', () => {
  it('brackets the shown time between two steps and blends between them', () => {
    const plan = planFor(view, 2, calendar, T0 + HOUR_MS);
    expect([plan.before, plan.after]).toEqual([T0, T0 + 3 * HOUR_MS]);
    expect(plan.t).toBeCloseTo(1 / 3, 12);
    expect(planSteps(plan)).toEqual([T0, T0 + 3 * HOUR_MS]);
    // On a step: that step only.
    expect(planSteps(planFor(view, 2, calendar, T0 + 3 * HOUR_MS))).toEqual([T0 + 3 * HOUR_MS]);
  });

  it('puts the tile under the view centre first', () => {
    const plan = planFor(view, 3, calendar, T0);
    const { x, y } = plan.visible[0];
    expect({ x, y }).toEqual({ x: tileAt(3, view.lon, view.lat).x, y: tileAt(3, view.lon, view.lat).y });
  });

  it('loads every file at every step of each data tile once, and keeps the colour parents down to zoom 0', () => {
    // 2200 px at zoom 3 is wider than the world: the view shows some data tiles twice.
    const wide = { lon: 0, lat: 0, zoom: 3, width: 2200, height: 1200 };
    const plan = planFor(wide, 1, calendar, T0 + HOUR_MS);
    const tiles = uniqueTiles(plan);
    expect(plan.visible.length).toBeGreaterThan(tiles.length);
    const { load, keep } = planTiles(plan, ['temp', 'wind'], 'temp', key);
    expect(load).toHaveLength(2 * 2 * tiles.length);
    expect(new Set(load).size).toBe(load.length);
    const parents = keep.filter((k) => !load.includes(k));
    // Zoom 0 parents of the colour file at both steps; none of the particle file.
    expect(parents.every((k) => k.startsWith('temp@') && k.includes('/0/'))).toBe(true);
    expect(new Set(parents)).toEqual(new Set(['temp@0h/0/0/0', 'temp@0h/0/1/0', 'temp@3h/0/0/0', 'temp@3h/0/1/0']));
  });

  it('says when the range of tiles changed (the particle field is rebuilt then)', () => {
    const a = planFor(view, 3, calendar, T0).range;
    expect(sameRange(a, planFor(view, 3, calendar, T0 + 3 * HOUR_MS).range)).toBe(true);
    expect(sameRange(a, planFor({ ...view, lon: view.lon + 40 }, 3, calendar, T0).range)).toBe(false);
    expect(sameRange(undefined, a)).toBe(false);
  });

  it('finds the tiles under a point from the data zoom down to 0, wrapping the longitude', () => {
    expect(tilesAt(2, 190, 10)).toEqual([tileAt(2, -170, 10), tileAt(1, -170, 10), tileAt(0, -170, 10)]);
    expect(tilesAt(2, 190, 10).map((t) => t.z)).toEqual([2, 1, 0]);
    expect(tilesAt(0, 179.99, -89.99)).toEqual([{ z: 0, x: 1, y: 0 }]);
  });
});
