import type REGL from 'regl';
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../common/time.ts';
import { tileBounds, type TileAddress } from '../../../common/tiling.ts';
import type { TileHeader } from '../../../common/tile.ts';
import { frameTransform } from '../../gl/transform.ts';
import { planFor } from '../../tiles/tilePlan.ts';
import { globePlanFor } from '../../tiles/globePlan.ts';
import { globeFrame, globeTileRect } from '../../gl/globeTransform.ts';
import { rasterDraws, tileRect, type LoadedTile, type RasterTiles } from './rasterDraws.ts';

const T0 = Date.UTC(2026, 10, 27, 0);
const T3 = T0 + 3 * HOUR_MS;
const calendar = { refTime: T0, timestamps: [T0, T3], start: T0, end: T3 };
const view = { lon: 14.4, lat: 50.1, zoom: 4, width: 640, height: 360 };
const name = (step: number, { z, x, y }: TileAddress) => `${(step - T0) / HOUR_MS}h/${z}/${x}/${y}`;

/** A loaded tile whose "texture" names it, so a draw says which data fed it. */
function loadedTile(step: number, address: TileAddress): LoadedTile {
  const header = { ...tileBounds(address), width: 256, height: 256, channels: 1, offsets: [-40], scales: [0.01] } as unknown as TileHeader;
  return { header, texture: name(step, address) as unknown as REGL.Texture2D };
}

function cache(loaded: string[], failed: string[] = []): RasterTiles {
  return {
    loaded: (step, address) => (loaded.includes(name(step, address)) ? loadedTile(step, address) : null),
    failed: (step, address) => failed.includes(name(step, address)),
  };
}

describe('raster draws', () => {
  const t = frameTransform(view, 1);

  it('draws each visible tile from its own data, blending the two steps', () => {
    const plan = planFor(view, 2, calendar, T0 + HOUR_MS);
    const own = plan.visible.flatMap((tile) => [name(T0, tile), name(T3, tile)]);
    const frame = rasterDraws(t, plan, cache(own), null);
    expect(frame.ownData).toBe(true);
    expect(frame.noData).toEqual([]);
    expect(frame.draws).toHaveLength(plan.visible.length);
    for (const [i, tile] of plan.visible.entries()) {
      expect(frame.draws[i]).toMatchObject({ a: name(T0, tile), b: name(T3, tile), t: plan.t, rect: tileRect(t, tile), qa: [-40, 0.01, 0, 0] });
    }
  });

  it('shows a loaded parent over a child still loading, and the earlier step until the later arrives', () => {
    const plan = planFor(view, 2, calendar, T0 + HOUR_MS);
    const child = plan.visible[0];
    const parent = { z: 1, x: child.x >> 1, y: child.y >> 1 };
    const frame = rasterDraws(t, plan, cache([name(T0, parent)]), null);
    const draw = frame.draws.find((d) => d.rect.join() === tileRect(t, child).join())!;
    expect(draw).toMatchObject({ a: name(T0, parent), b: name(T0, parent), t: 0 });
    // The parent's west edge, in the child's unwrapped frame.
    expect(draw.tile[0]).toBeCloseTo(child.west - (child.x * 45 - parent.x * 90), 9);
  });

  it('marks a failed tile "No data!" and leaves a loading one to the step shown before', () => {
    const plan = planFor(view, 2, calendar, T3);
    const [first, second] = plan.visible;
    const frame = rasterDraws(t, plan, cache([name(T0, second)], [name(T3, first)]), T0);
    expect(frame.noData).toEqual([tileRect(t, first)]);
    expect(frame.draws).toHaveLength(1);
    expect(frame.draws[0]).toMatchObject({ a: name(T0, second), t: 0 });
    // Only the step shown before: it stays the step shown.
    expect(frame.ownData).toBe(false);
  });

  it("takes each tile's rectangle from the projection it is given (the globe's), leaving out tiles that do not show", () => {
    const gview = { lon: 10, lat: 20, zoom: 2.5, width: 640, height: 480 };
    const f = globeFrame(gview, 1);
    const plan = globePlanFor(gview, 1, calendar, T0);
    const own = plan.visible.map((tile) => name(T0, tile));
    const hidden = plan.visible[plan.visible.length - 1];
    const frame = rasterDraws(t, plan, cache(own), null, (tile) => (tile === hidden ? null : globeTileRect(f, tile)));
    expect(frame.draws).toHaveLength(plan.visible.length - 1);
    for (const [i, tile] of plan.visible.slice(0, -1).entries()) {
      expect(frame.draws[i].rect).toEqual(globeTileRect(f, tile));
      expect(frame.draws[i].quadLat).toEqual([tile.north, tile.south]);
    }
  });
});
