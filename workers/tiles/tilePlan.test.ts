import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../common/time.ts';
import { tileAt } from '../../common/tiling.ts';
import type { TileState } from '../api.ts';
import { globePlanFor } from './globePlan.ts';
import { failedStandIns, planFor, planSteps, planTiles, sameRange, tilesAt, uniqueTiles } from './tilePlan.ts';

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

  it('asks for the nearest coarser tile not failed in place of a failed one, where no covering tile is loaded', () => {
    // A globe over Europe at data zoom 2 (45° tiles), at a forecast step.
    const globe = { lon: 10, lat: 45, zoom: 3, width: 800, height: 600 };
    const plan = globePlanFor(globe, 2, calendar, T0);
    const [first, second] = plan.visible;
    const name = (step: number, { z, x, y }: { z: number; x: number; y: number }) => `${(step - T0) / HOUR_MS}h/${z}/${x}/${y}`;
    const standIns = (states: Record<string, TileState>) =>
      failedStandIns(plan, (step, address) => states[name(step, address)]).map(({ step, address }) => name(step, address));
    const parent = (tile: typeof first, up: number) => ({ z: tile.z - up, x: tile.x >> up, y: tile.y >> up });
    // Nothing failed: nothing to ask for.
    expect(standIns({})).toEqual([]);
    // The first tile failed: its parent at zoom 1.
    expect(standIns({ [name(T0, first)]: 'failed' })).toEqual([name(T0, parent(first, 1))]);
    // Its parent failed too: zoom 0.
    expect(standIns({ [name(T0, first)]: 'failed', [name(T0, parent(first, 1))]: 'failed' })).toEqual([name(T0, parent(first, 2))]);
    // A covering tile loaded or on its way: nothing more.
    expect(standIns({ [name(T0, first)]: 'failed', [name(T0, parent(first, 1))]: 'loaded' })).toEqual([]);
    expect(standIns({ [name(T0, first)]: 'failed', [name(T0, parent(first, 1))]: 'failed', [name(T0, parent(first, 2))]: 'loading' })).toEqual([]);
    // A tile still loading is no failure; every tile failed down to zoom 0: nothing left to ask for.
    expect(standIns({ [name(T0, first)]: 'loading' })).toEqual([]);
    expect(standIns({ [name(T0, first)]: 'failed', [name(T0, parent(first, 1))]: 'failed', [name(T0, parent(first, 2))]: 'failed' })).toEqual([]);
    // Two failed tiles of one parent ask for it once; between two steps, at each step that failed.
    const siblings = plan.visible.filter((t) => t !== first && t.x >> 1 === first.x >> 1 && t.y >> 1 === first.y >> 1);
    expect(siblings.length).toBeGreaterThan(0);
    expect(standIns({ [name(T0, first)]: 'failed', [name(T0, siblings[0])]: 'failed' })).toEqual([name(T0, parent(first, 1))]);
    const between = globePlanFor(globe, 2, calendar, T0 + HOUR_MS);
    const later = failedStandIns(between, (step, address) => (address.z === 2 && address.x === second.x && address.y === second.y ? 'failed' : undefined));
    expect(later.map(({ step, address }) => name(step, address))).toEqual([name(T0, parent(second, 1)), name(T0 + 3 * HOUR_MS, parent(second, 1))]);
  });
});
