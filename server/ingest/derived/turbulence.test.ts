import { describe, expect, it } from 'vitest';
import { deformation, ti1From, type GridGeometry } from './turbulence.ts';

const R = 6_371_000;
const DEG = Math.PI / 180;

/** A 1° grid of 20 x 11 rows from 5 °N to 5 °S. */
const grid: GridGeometry = { ni: 20, nj: 11, dLon: 1, latitude: (j) => 5 - j, global: false };
const field = (f: (lon: number, lat: number) => number) => {
  const out = new Float32Array(grid.ni * grid.nj);
  for (let j = 0; j < grid.nj; j++) for (let i = 0; i < grid.ni; i++) out[j * grid.ni + i] = f(i, grid.latitude(j));
  return out;
};

describe('Ellrod & Knapp (1992) TI1', () => {
  it('finds the shearing deformation of u = a y and the stretching of u = a x, v = -a y', () => {
    const a = 1e-5;
    const shear = deformation(field((_, lat) => a * R * lat * DEG), field(() => 0), grid);
    expect(shear[5 * grid.ni + 10]).toBeCloseTo(a, 9);
    // At the equator dx = R dλ: DST = ∂u/∂x − ∂v/∂y = 2a.
    const stretch = deformation(field((lon) => a * R * lon * DEG), field((_, lat) => -a * R * lat * DEG), grid);
    expect(stretch[5 * grid.ni + 10]).toBeCloseTo(2 * a, 9);
  });

  it('is VWS x DEF in 1e-7 s-2: 10 m/s over 1 km on a 1e-5 s-1 deformation is 1', () => {
    const a = 1e-5;
    const uBottom = field((_, lat) => a * R * lat * DEG);
    const uTop = field((_, lat) => a * R * lat * DEG + 10);
    const zero = field(() => 0);
    const ti1 = ti1From(uBottom, zero, field(() => 9000), uTop, zero, field(() => 10_000), grid);
    expect(ti1[5 * grid.ni + 10]).toBeCloseTo(1, 5);
  });
});
