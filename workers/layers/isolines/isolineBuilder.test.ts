import { beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../common/time.ts';
import { TILE_NODES, tileBounds, type TileAddress } from '../../../common/tiling.ts';
import { latFromMercY } from '../../../common/map.ts';
import type { Engine } from '../../../engine/engine.ts';
import { createEngine } from '../../../engine/testing.ts';
import { planFor } from '../../tiles/tilePlan.ts';
import { assembleGrid, buildIsolines, FULL_RESOLUTION_MAX_NODES, labelPlaces, LABEL_SPACING_PX, MIN_RING_CELLS } from './isolineBuilder.ts';

const T0 = Date.UTC(2026, 10, 27, 0);
const calendar = { refTime: T0, timestamps: [T0, T0 + 3 * HOUR_MS], start: T0, end: T0 + 3 * HOUR_MS };

/** A tile of a field given as a function of lon/lat, on the tile's own nodes. */
function tileOf(address: TileAddress, f: (lon: number, lat: number) => number): Float32Array {
  const { west, north, east, south } = tileBounds(address);
  const out = new Float32Array(TILE_NODES * TILE_NODES);
  for (let j = 0; j < TILE_NODES; j++) {
    for (let i = 0; i < TILE_NODES; i++) {
      out[j * TILE_NODES + i] = f(west + ((east - west) * i) / (TILE_NODES - 1), north - ((north - south) * j) / (TILE_NODES - 1));
    }
  }
  return out;
}

/** Mean sea-level pressure, Pa: 1013 hPa with a 990 hPa low at 10° E 50° N, 1500 km across. */
const low = (lon: number, lat: number) => 101300 - 2300 * Math.exp(-((lon - 10) ** 2 + (lat - 50) ** 2) / 150);

describe('isolines of the view', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });

  it('puts the view\'s tiles together node for node, NaN where a tile has not arrived', () => {
    const view = { lon: 10, lat: 50, zoom: 3, width: 800, height: 600 };
    const plan = planFor(view, 1, calendar, T0);
    const missing = plan.visible[plan.visible.length - 1];
    const grid = assembleGrid(plan, (a) => (a.x === missing.x && a.y === missing.y ? null : tileOf(a, low)));
    expect(grid.wrap).toBe(false);
    expect(grid.nx * grid.ny).toBeLessThanOrEqual(FULL_RESOLUTION_MAX_NODES * 1.01);
    // A node of the grid holds the field at its place.
    const at = (x: number, y: number) => grid.values[y * grid.nx + x];
    const x = Math.round((10 - grid.lon0) / grid.spacing);
    const y = Math.round((grid.lat0 - 50) / grid.spacing);
    expect(at(x, y)).toBeCloseTo(low(grid.lon0 + x * grid.spacing, grid.lat0 - y * grid.spacing), 0);
    expect(grid.filled).toBe(new Set(plan.visible.map((t) => `${t.x}/${t.y}`)).size - 1);
    expect(grid.values.some(Number.isNaN)).toBe(true);
  });

  it('draws closed rings round a low every 4 hPa, 1000 hPa heavier, and marks it L with its value', () => {
    const view = { lon: 10, lat: 50, zoom: 3, width: 800, height: 600 };
    const plan = planFor(view, 1, calendar, T0);
    const set = buildIsolines(engine, assembleGrid(plan, (a) => tileOf(a, low)), 'pressure', 'hPa');
    const labels = set.lines.map((l) => l.label);
    expect(new Set(labels)).toEqual(new Set(['992', '996', '1000', '1004', '1008', '1012']));
    expect(set.lines.filter((l) => l.label === '1000').every((l) => l.heavy && l.closed)).toBe(true);
    expect(set.lines.filter((l) => l.label === '996').every((l) => !l.heavy)).toBe(true);
    // The 996 hPa ring lies where the field is 996 hPa.
    const ring = set.lines.find((l) => l.label === '996')!;
    for (let i = ring.start; i < ring.start + ring.count; i += 7) {
      const lon = set.points[2 * i] * 360 - 180;
      const lat = latFromMercY(set.points[2 * i + 1]);
      expect(low(lon, lat) / 100).toBeCloseTo(996, 0);
    }
    expect(set.extrema).toHaveLength(1);
    expect(set.extrema[0]).toMatchObject({ kind: 'L', text: '990' });
    expect(set.extrema[0].lon).toBeCloseTo(10, 0);
    expect(set.extrema[0].lat).toBeCloseTo(50, 0);
  });

  it('labels in the user\'s unit; H and L only for pressure', () => {
    const view = { lon: 10, lat: 50, zoom: 3, width: 800, height: 600 };
    const plan = planFor(view, 1, calendar, T0);
    const grid = assembleGrid(plan, (a) => tileOf(a, low));
    const inHg = buildIsolines(engine, grid, 'pressure', 'inHg');
    expect(inHg.lines.map((l) => l.label)).toContain('29.5');
    // A temperature field (K): 2 °C lines with the unit; no markers.
    const warm = assembleGrid(plan, (a) => tileOf(a, (lon, lat) => 273.15 + (55 - lat) * 0.8));
    const temp = buildIsolines(engine, warm, 'temp', '°C');
    expect(temp.lines.map((l) => l.label)).toContain('0°C');
    expect(temp.lines.find((l) => l.label === '0°C')!.heavy).toBe(true);
    expect(temp.extrema).toEqual([]);
  });

  it('places labels along the lines, spaced, upright', () => {
    const view = { lon: 10, lat: 50, zoom: 4, width: 1280, height: 720 };
    const plan = planFor(view, 2, calendar, T0);
    const set = buildIsolines(engine, assembleGrid(plan, (a) => tileOf(a, low)), 'pressure', 'hPa');
    const places = labelPlaces(set, 4);
    expect(places.length).toBeGreaterThan(set.lines.length / 2);
    for (const p of places) {
      expect(Math.abs(p.angle)).toBeLessThanOrEqual(90);
      expect(low(p.lon, p.lat) / 100).toBeCloseTo(Number(p.text), 0);
    }
    // Fewer, further apart, when zoomed out.
    expect(labelPlaces(set, 2).length).toBeLessThan(places.length);
    expect(LABEL_SPACING_PX).toBeGreaterThan(100);
  });

  it('goes all the way round on a world view, joined across the antimeridian', () => {
    const view = { lon: 180, lat: 0, zoom: 2, width: 1600, height: 900 };
    const plan = planFor(view, 0, calendar, T0);
    // A low on the antimeridian, in a field that falls gently southwards (no flat plateau to call a high).
    const seam = (lon: number, lat: number) => 101300 + 10 * lat - 2300 * Math.exp(-(((((lon + 360) % 360) - 180) ** 2) + lat ** 2) / 150);
    const grid = assembleGrid(plan, (a) => tileOf(a, seam));
    expect(grid.wrap).toBe(true);
    const set = buildIsolines(engine, grid, 'pressure', 'hPa');
    const rings = set.lines.filter((l) => l.label === '996');
    expect(rings).toHaveLength(1);
    expect(rings[0].closed).toBe(true);
    expect(set.extrema.map((e) => e.kind)).toEqual(['L']);
  });
});

describe('isoline noise', () => {
  it('leaves out rings enclosing under MIN_RING_CELLS cells: a bump of one node, a sliver along a ridge', async () => {
    const engine = await createEngine();
    const view = { lon: 10, lat: 50, zoom: 3, width: 800, height: 600 };
    const plan = planFor(view, 1, calendar, T0);
    const grid = assembleGrid(plan, (a) => tileOf(a, () => 101000));
    // One node 1 hPa up: a ring about one cell across round it at 1012 hPa.
    grid.values[Math.floor(grid.ny / 2) * grid.nx + Math.floor(grid.nx / 2)] = 101300;
    expect(buildIsolines(engine, grid, 'pressure', 'hPa').lines).toEqual([]);
    // A ridge one node wide and six long, just over a level: a ring round it encloses under two cells.
    grid.values.fill(101000);
    const row = Math.floor(grid.ny / 2) * grid.nx + Math.floor(grid.nx / 2);
    for (let i = 0; i < 6; i++) grid.values[row + i] = 101220;
    expect(buildIsolines(engine, grid, 'pressure', 'hPa').lines).toEqual([]);
    // A real small low stays.
    for (let y = -3; y <= 3; y++) for (let x = -3; x <= 3; x++) grid.values[row + y * grid.nx + x] = 100500 + 40 * (x * x + y * y);
    expect(buildIsolines(engine, grid, 'pressure', 'hPa').lines.length).toBeGreaterThan(0);
    expect(MIN_RING_CELLS).toBeGreaterThan(1);
  });
});
