import { describe, expect, it } from 'vitest';
import { decodeDataTile, encodeDataTile } from '../../common/tile.ts';
import { sampleTile, windDirection } from './sample.ts';

describe('picker sampling', () => {
  const tile = decodeDataTile(encodeDataTile({
    west: 0, north: 10, east: 10, south: 0, width: 3, height: 3,
    channels: [[0, 5, 10, 0, 5, 10, 0, 5, NaN], [1, 1, 1, 1, 1, 1, 1, 1, 1]],
  }));

  it('interpolates bilinearly between nodes', () => {
    expect(sampleTile(tile.header, tile.channels, 2.5, 10)![0]).toBeCloseTo(2.5, 3);
    expect(sampleTile(tile.header, tile.channels, 5, 7.5)![0]).toBeCloseTo(5, 3);
  });

  it('skips missing nodes and gives none with fewer than two valid nodes', () => {
    // (1,1)=5 w .0004, (2,1)=10 w .0196, (1,2)=5 w .0196, (2,2) missing: renormalised over the valid weight.
    expect(sampleTile(tile.header, tile.channels, 9.9, 0.1)![0]).toBeCloseTo((5 * 0.0004 + 10 * 0.0196 + 5 * 0.0196) / 0.0396, 3);
    const sparse = decodeDataTile(encodeDataTile({ west: 0, north: 1, east: 1, south: 0, width: 2, height: 2, channels: [[1, NaN, NaN, NaN]] }));
    expect(sampleTile(sparse.header, sparse.channels, 0.5, 0.5)).toBeNull();
  });

  it('answers a class field with the nearest node\'s code, never a blend: no freezing rain (3) between rain (0) and snow (5)', () => {
    const ptype = decodeDataTile(encodeDataTile({
      west: 0, north: 10, east: 10, south: 0, width: 3, height: 3, quantization: [{ offset: 0, scale: 1 }],
      channels: [[0, 5, 5, 0, 5, 5, 0, NaN, 5]],
    }));
    const codes = new Set<number | null>();
    for (let lon = 0; lon <= 10; lon += 0.25) {
      for (let lat = 0; lat <= 10; lat += 0.25) codes.add(sampleTile(ptype.header, ptype.channels, lon, lat, 'nearest')?.[0] ?? null);
    }
    expect([...codes].sort()).toEqual([0, 5, null]);
    expect(sampleTile(ptype.header, ptype.channels, 2.4, 7, 'nearest')).toEqual([0]);
    expect(sampleTile(ptype.header, ptype.channels, 2.5, 7, 'nearest')).toEqual([5]);
    // The missing node (no precipitation) answers nothing where it is the nearest, even among valid nodes.
    expect(sampleTile(ptype.header, ptype.channels, 5, 1, 'nearest')).toBeNull();
    // Bilinear would answer 2.5 at the same point: a code that is not there.
    expect(sampleTile(ptype.header, ptype.channels, 2.5, 7, 'bilinear')![0]).toBeCloseTo(2.5, 3);
  });

  it('wraps longitude and refuses points outside', () => {
    expect(sampleTile(tile.header, tile.channels, 362.5, 10)![0]).toBeCloseTo(2.5, 3);
    expect(sampleTile(tile.header, tile.channels, 20, 5)).toBeNull();
    expect(sampleTile(tile.header, tile.channels, 5, 11)).toBeNull();
  });

  it.each([[0, -1, 0], [-1, 0, 90], [0, 1, 180], [1, 0, 270]])('u %f v %f blows from %f°', (u, v, deg) => {
    expect(windDirection(u, v)).toBeCloseTo(deg, 9);
  });
});
