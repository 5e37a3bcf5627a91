import { describe, expect, it } from 'vitest';
import { decodeBasemap, emptyMesh, encodeBasemap, type Basemap } from './basemap.ts';

const mesh = (vertices: number[], indices: number[]) => ({ vertices: Uint16Array.from(vertices), indices: Uint16Array.from(indices) });

describe('offline basemap binary', () => {
  const map: Basemap = {
    x0: -0.25, x1: 1.25, y0: 0.25, y1: 0.5,
    land: mesh([0, 0, 65535, 0, 0, 65535], [0, 1, 2]),
    coast: mesh([0, 0, 10, 10], [0, 1]),
    borders: emptyMesh(),
    lakes: mesh([1, 1, 2, 2, 3, 1], [0, 1, 2]),
    rivers: mesh([5, 5, 6, 6, 7, 7], [0, 1, 1, 2]),
    admin1: emptyMesh(),
  };

  it('keeps every mesh and the quantization ranges through encode and decode', () => {
    const bytes = encodeBasemap(map);
    const back = decodeBasemap(bytes.slice().buffer as ArrayBuffer);
    expect(back.y0).toBe(0.25);
    expect(back.y1).toBe(0.5);
    for (const name of ['land', 'coast', 'borders', 'lakes', 'rivers', 'admin1'] as const) {
      expect(Array.from(back[name].vertices), name).toEqual(Array.from(map[name].vertices));
      expect(Array.from(back[name].indices), name).toEqual(Array.from(map[name].indices));
    }
  });

  it('reads version 1 (three meshes, y over the world)', () => {
    const v1 = new Uint8Array(40 + 12 + 8);
    const view = new DataView(v1.buffer);
    view.setUint32(0, 0x4d425349, true);
    view.setUint16(4, 1, true);
    view.setFloat32(8, 0, true);
    view.setFloat32(12, 1, true);
    view.setUint32(16, 3, true); // land: 3 vertices, 3 indices
    view.setUint32(20, 3, true);
    new Uint16Array(v1.buffer, 40, 6).set([0, 0, 1, 0, 0, 1]);
    new Uint16Array(v1.buffer, 52, 3).set([0, 1, 2]);
    const back = decodeBasemap(v1.buffer);
    expect([back.y0, back.y1]).toEqual([0, 1]);
    expect(Array.from(back.land.indices)).toEqual([0, 1, 2]);
    expect(back.lakes.indices.length).toBe(0);
  });

  it('refuses an index past its vertices, and a truncated file', () => {
    const bad = encodeBasemap({ ...map, coast: mesh([0, 0], [0, 1]) });
    expect(() => decodeBasemap(bad.buffer as ArrayBuffer)).toThrow(/coast has an index out of range/);
    expect(() => decodeBasemap(encodeBasemap(map).buffer.slice(0, 60) as ArrayBuffer)).toThrow(/truncated/);
  });
});
