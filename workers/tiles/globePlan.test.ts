import { describe, expect, it } from 'vitest';
import { angularDistance, globeProject, globeRadius, globeUnproject, type GlobeView } from '../../common/globe.ts';
import { HOUR_MS } from '../../common/time.ts';
import { tileAt, tileColumns, tileSpan } from '../../common/tiling.ts';
import { globePlanFor, globeTileRange, tileInCap } from './globePlan.ts';
import { planTiles } from './tilePlan.ts';
import { fieldColumnOf, fieldColumns } from './tileSet.ts';

const T0 = Date.UTC(2026, 10, 27, 0);
const calendar = { refTime: T0, timestamps: [T0, T0 + 3 * HOUR_MS], start: T0, end: T0 + 3 * HOUR_MS };
const whole: GlobeView = { lon: 15, lat: 30, zoom: 2.5, width: 1280, height: 720 };

/** Every screen pixel (every `step`) of the disc, as lon/lat. */
function discPoints(view: GlobeView, step: number): { lon: number; lat: number }[] {
  const out: { lon: number; lat: number }[] = [];
  for (let y = 0; y <= view.height; y += step) {
    for (let x = 0; x <= view.width; x += step) {
      const p = globeUnproject(view, x, y);
      if (p) out.push(p);
    }
  }
  return out;
}

describe('globe tile plan', () => {
  it('covers every point of the disc with a planned tile, the centre first', () => {
    for (const view of [whole, { ...whole, lon: 178, lat: -20 }, { ...whole, lat: 80 }, { ...whole, zoom: 5.5, lon: -179 }]) {
      const plan = globePlanFor(view, 2, calendar, T0);
      const planned = new Set(plan.visible.map((t) => `${t.x}/${t.y}`));
      for (const p of discPoints(view, 24)) {
        const t = tileAt(2, p.lon, p.lat);
        expect(planned.has(`${t.x}/${t.y}`), `${p.lon}, ${p.lat} in view ${view.lon}, ${view.lat}`).toBe(true);
      }
      const first = tileAt(2, view.lon, view.lat);
      expect([plan.visible[0].x, plan.visible[0].y]).toEqual([first.x, first.y]);
    }
  });

  it('leaves out the far side of the globe', () => {
    const plan = globePlanFor(whole, 3, calendar, T0);
    const all = tileColumns(3) * (tileColumns(3) / 2);
    // A hemisphere, give or take the tiles on the limb.
    expect(plan.visible.length).toBeLessThan(all * 0.7);
    const far = tileAt(3, whole.lon + 180, -whole.lat);
    expect(plan.visible.some((t) => t.x === far.x && t.y === far.y)).toBe(false);
    // Each data tile once (the range is one world wide even with a pole in view).
    const keys = plan.visible.map((t) => `${t.x}/${t.y}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('takes whole rows of the world when a pole is in view, so the particle field wraps', () => {
    const range = globeTileRange(whole, 3);
    expect(range.global).toBe(true);
    expect(range.r0).toBe(0);
    expect(fieldColumns(range)).toEqual({ first: 0, count: tileColumns(3) });
    const plan = globePlanFor(whole, 3, calendar, T0);
    for (const t of plan.visible) expect(fieldColumnOf(t, range)).toBe(t.x);
  });

  it('plans a narrow unwrapped range across the antimeridian when zoomed in', () => {
    const view: GlobeView = { lon: 179.5, lat: 10, zoom: 6, width: 1280, height: 720 };
    const range = globeTileRange(view, 4);
    expect(range.global).toBe(false);
    expect(-180 + range.c0 * tileSpan(4)).toBeLessThan(179.5);
    expect(-180 + (range.c1 + 1) * tileSpan(4)).toBeGreaterThan(180);
    const plan = globePlanFor(view, 4, calendar, T0);
    // Tiles east of the antimeridian are data tiles of column 0.., drawn in the unwrapped frame.
    expect(plan.visible.some((t) => t.x === 0 && t.west >= 180)).toBe(true);
    const { load } = planTiles(plan, ['wind'], 'wind', (file, step, a) => `${file}/${a.z}/${a.x}/${a.y}`);
    expect(load.length).toBe(plan.visible.length);
  });

  it('keeps a tile that reaches into the cap and drops one wholly beyond it', () => {
    const r = 30;
    const tile = (west: number, north: number, span: number) => ({ z: 0, x: 0, y: 0, column: 0, west, north, south: north - span, span });
    expect(tileInCap(tile(25, 10, 10), 0, 0, r)).toBe(true);
    expect(tileInCap(tile(40, 10, 10), 0, 0, r)).toBe(false);
    // The cap reaches into a big tile only through the middle of its edge: no corner is inside.
    expect(tileInCap(tile(28, 60, 120), 0, 0, r)).toBe(true);
    expect(angularDistance(0, 0, 28, 60)).toBeGreaterThan(r);
  });

  it('is consistent with the projection: planned tiles have a visible point', () => {
    const plan = globePlanFor(whole, 2, calendar, T0);
    for (const t of plan.visible) {
      let seen = false;
      for (let i = 0; i <= 8 && !seen; i++) {
        for (let j = 0; j <= 8 && !seen; j++) {
          seen = globeProject(whole, t.west + (t.span * i) / 8, t.south + ((t.north - t.south) * j) / 8).z > -0.2;
        }
      }
      expect(seen).toBe(true);
    }
    expect(globeRadius(whole.zoom)).toBeLessThan(whole.height / 2);
  });
});
