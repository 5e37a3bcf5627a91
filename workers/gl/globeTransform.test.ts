import { describe, expect, it } from 'vitest';
import { globeRadius, globeUnproject, type GlobeView } from '../../common/globe.ts';
import { globePlanFor } from '../tiles/globePlan.ts';
import { globeFrame, globeTileRect, sameGlobe } from './globeTransform.ts';

const T0 = Date.UTC(2026, 10, 27, 0);
const calendar = { refTime: T0, timestamps: [T0], start: T0, end: T0 };

describe('globe frame', () => {
  it('scales the radius by the capped pixel ratio', () => {
    const f = globeFrame({ lon: 0, lat: 0, zoom: 3, width: 640, height: 360 }, 3);
    expect([f.width, f.height]).toEqual([1280, 720]);
    expect(f.radius).toBeCloseTo(2 * globeRadius(3), 9);
    expect(f.worldPx).toBeCloseTo(2 * 256 * 8, 9);
    expect(sameGlobe(f, globeFrame({ lon: 0, lat: 0, zoom: 3, width: 640, height: 360 }, 2))).toBe(true);
    expect(sameGlobe(f, globeFrame({ lon: 1, lat: 0, zoom: 3, width: 640, height: 360 }, 2))).toBe(false);
  });

  it("covers every disc pixel of a tile with the tile's rectangle, limb tiles included", () => {
    for (const view of [
      { lon: 15, lat: 30, zoom: 2.5, width: 900, height: 700 },
      { lon: -179, lat: -70, zoom: 2.2, width: 700, height: 700 },
      { lon: 100, lat: 5, zoom: 5, width: 800, height: 600 },
    ] satisfies GlobeView[]) {
      const f = globeFrame(view, 1);
      const plan = globePlanFor(view, 2, calendar, T0);
      const rects = new Map(plan.visible.map((t) => [t, globeTileRect(f, t)]));
      for (let y = 0; y < view.height; y += 7) {
        for (let x = 0; x < view.width; x += 7) {
          const p = globeUnproject(view, x + 0.5, y + 0.5);
          if (!p) continue;
          const tile = plan.visible.find((t) => {
            let d = p.lon - t.west;
            d -= 360 * Math.floor(d / 360);
            return d < t.span && p.lat <= t.north && p.lat >= t.south;
          });
          expect(tile, `${p.lon} ${p.lat}`).toBeDefined();
          const r = rects.get(tile!)!;
          expect(r).not.toBeNull();
          const cx = ((x + 0.5) - view.width / 2) / (view.width / 2);
          const cy = -((y + 0.5) - view.height / 2) / (view.height / 2);
          expect(cx).toBeGreaterThanOrEqual(r[0]);
          expect(cx).toBeLessThanOrEqual(r[2]);
          expect(cy).toBeLessThanOrEqual(r[1]);
          expect(cy).toBeGreaterThanOrEqual(r[3]);
        }
      }
    }
  });
});
