import { describe, expect, it } from 'vitest';
import { RADAR_DBZ_QUANTIZATION, radarSteps, type RadarFrame } from '../../common/radar.ts';
import { decodeDataTile, NO_DATA, packDataTile } from '../../common/tile.ts';
import { TILE_NODES, tileBounds } from '../../common/tiling.ts';
import { MINUTE_MS } from '../../common/time.ts';
import { emptyRadarTile, mergeRadarTiles, RadarTileSource } from './radarTileSource.ts';

const ADDRESS = { z: 3, x: 8, y: 1 };
const N = TILE_NODES * TILE_NODES;
const tile = (set: Record<number, number>) => {
  const q = new Uint16Array(N).fill(NO_DATA);
  for (const [k, dbz] of Object.entries(set)) q[Number(k)] = (dbz - RADAR_DBZ_QUANTIZATION.offset) / RADAR_DBZ_QUANTIZATION.scale;
  return packDataTile({ ...tileBounds(ADDRESS), width: TILE_NODES, height: TILE_NODES, channels: [{ ...RADAR_DBZ_QUANTIZATION, q }] });
};

describe('radar tiles of several providers', () => {
  it('merge by the maximum dBZ, no data where none has an echo', () => {
    const merged = decodeDataTile(mergeRadarTiles(ADDRESS, [tile({ 0: 20, 1: 35.5, 5: 10 }), tile({ 0: 42, 1: 30, 7: -5 })])).channels[0];
    expect([merged[0], merged[1], merged[5], merged[7]]).toEqual([42, 35.5, 10, -5]);
    expect(merged[2]).toBeNaN();
    expect(decodeDataTile(emptyRadarTile(ADDRESS)).channels[0].every(Number.isNaN)).toBe(true);
  });

  it('share one cache key across steps that show the same frame, and fetch nothing for a tile no frame has', () => {
    const T = Date.UTC(2025, 5, 1, 12);
    const frame = (source: string, minutes: number, tiles: string[]): RadarFrame => ({ time: T + minutes * MINUTE_MS, id: `${source}${minutes}`, sources: [source], tiles });
    const steps = radarSteps([frame('radolan', 0, ['3/8/1']), frame('mrms', 0, ['3/2/1']), frame('mrms', 2, ['3/2/1'])]);
    const source = new RadarTileSource('http://x', steps, null);
    const key = (minutes: number, address = ADDRESS) => source.key({ file: 'radar', level: 'surface', validTime: T + minutes * MINUTE_MS, address });
    expect(key(0)).toBe('http://x/obs/v1.0/radar/frames/radolan0/3/8/1.tile');
    expect(key(2)).toBe(key(0));
    expect(key(0, { z: 3, x: 2, y: 1 })).not.toBe(key(2, { z: 3, x: 2, y: 1 }));
    expect(key(0, { z: 3, x: 0, y: 0 })).toBe(key(2, { z: 3, x: 0, y: 0 }));
    expect(() => key(1)).toThrow(/No radar frame/);
  });
});
