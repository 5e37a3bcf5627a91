import { describe, expect, it } from 'vitest';
import { globeUnproject, type GlobeView } from '../../common/globe.ts';
import { mercX, mercY } from '../../common/map.ts';
import { globeLabelAt, globeLabelTiles } from './globeLabels.ts';

describe('city labels on the globe', () => {
  it('asks for every label tile under the disc, nearest the centre first, each once', () => {
    for (const view of [
      { lon: 14.4, lat: 50, zoom: 4, width: 1280, height: 720 },
      { lon: 179, lat: -10, zoom: 5, width: 1000, height: 700 },
    ] satisfies GlobeView[]) {
      const z = 4;
      const n = 2 ** z;
      const tiles = globeLabelTiles(view, z);
      const keys = new Set(tiles.map((t) => `${t.x}/${t.y}`));
      expect(keys.size).toBe(tiles.length);
      expect(tiles[0]).toEqual({ x: Math.floor(mercX(view.lon) * n), y: Math.floor(mercY(view.lat) * n) });
      for (let y = 0; y < view.height; y += 20) {
        for (let x = 0; x < view.width; x += 20) {
          const p = globeUnproject(view, x, y);
          if (!p || Math.abs(p.lat) > 85) continue;
          const key = `${Math.floor(mercX(p.lon) * n) % n}/${Math.floor(mercY(p.lat) * n)}`;
          expect(keys.has(key), key).toBe(true);
        }
      }
    }
  });

  it('places a label by the globe projection on the near side only', () => {
    const view: GlobeView = { lon: 0, lat: 0, zoom: 3, width: 800, height: 600 };
    expect(globeLabelAt(view, 0, 0)).toEqual({ x: 400, y: 300 });
    expect(globeLabelAt(view, 150, 0)).toBeNull();
    // Near the limb: left out.
    expect(globeLabelAt(view, 85, 0)).toBeNull();
    expect(globeLabelAt(view, 60, 0)!.x).toBeGreaterThan(400);
  });
});
