/**
 * Isolines and extrema of the engine (engine/assembly/isolines.ts through Engine.contour and
 * Engine.extrema), checked against d3-contour 4.0.3 on the same fields.
 *
 * What is compared with d3-contour: the set of segments, each the two vertices a line has in one
 * cell, at tolerance 1e-4 grid units, with
 * - d3's coordinates moved by -0.5 (d3 puts node (i, j) at (i + 0.5, j + 0.5));
 * - d3's frame left out: d3 closes its rings around the grid's border through points half a cell
 *   outside it; a segment with a vertex outside [0, nx - 1] x [0, ny - 1] is dropped;
 * - saddle cells whose centre (mean of the four corners) is at or above the level left out on
 *   both sides: d3 always keeps the two corners above apart, we join them through the centre
 *   there (its other saddles are resolved alike and compared);
 * - no NaN node in the fields compared (d3 takes NaN as below every level; we draw no segment in
 *   a cell with a NaN corner, tested on its own below);
 * - our lines unsmoothed (smooth: false) and without wrap.
 */

import { contours } from 'd3-contour';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contours, Engine } from './engine.ts';
import { decodeField, inventory, toNorthUp } from './grib/index.ts';
import { describeWithFixtures, readFixture } from './grib/testing.ts';
import { createEngine, seededRandom } from './testing.ts';

type Segment = [number, number, number, number];

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

/** The segments of the lines of one level: consecutive vertices, and the closing pair of a ring. */
function ourSegments(result: Contours, level: number): Segment[] {
  const out: Segment[] = [];
  const p = result.points;
  for (const line of result.lines) {
    if (line.level !== level) continue;
    for (let k = 0; k + 1 < line.count; k++) {
      const a = line.start + k;
      out.push([p[2 * a], p[2 * a + 1], p[2 * a + 2], p[2 * a + 3]]);
    }
    if (line.closed) {
      const last = line.start + line.count - 1;
      out.push([p[2 * last], p[2 * last + 1], p[2 * line.start] + line.xShift, p[2 * line.start + 1]]);
    }
  }
  return out;
}

/** d3-contour's ring segments at `level`, in our grid units, without its frame. */
function d3Segments(values: Float32Array, nx: number, ny: number, level: number): Segment[] {
  const polygons = contours().size([nx, ny]).smooth(true).contour(Array.from(values), level);
  const out: Segment[] = [];
  const inside = (x: number, y: number) => x >= -1e-9 && x <= nx - 1 + 1e-9 && y >= -1e-9 && y <= ny - 1 + 1e-9;
  for (const polygon of polygons.coordinates) {
    for (const ring of polygon) {
      for (let k = 0; k + 1 < ring.length; k++) {
        const [x0, y0] = ring[k];
        const [x1, y1] = ring[k + 1];
        const s: Segment = [x0 - 0.5, y0 - 0.5, x1 - 0.5, y1 - 0.5];
        if (inside(s[0], s[1]) && inside(s[2], s[3])) out.push(s);
      }
    }
  }
  return out;
}

/** True for a saddle cell whose centre is at or above the level (resolved unlike d3). */
function joinedSaddle(values: Float32Array, nx: number, level: number, s: Segment): boolean {
  const i = Math.floor((s[0] + s[2]) / 2);
  const j = Math.floor((s[1] + s[3]) / 2);
  const tl = values[j * nx + i];
  const tr = values[j * nx + i + 1];
  const bl = values[(j + 1) * nx + i];
  const br = values[(j + 1) * nx + i + 1];
  const a = tl >= level;
  const saddle = a === (br >= level) && a !== (tr >= level) && a !== (bl >= level);
  return saddle && (tl + tr + br + bl) / 4 >= level;
}

/** Matches two segment sets at `tolerance`; returns the unmatched of each. */
function unmatched(ours: Segment[], theirs: Segment[], tolerance = 1e-4): { ours: Segment[]; theirs: Segment[] } {
  const key = (x: number, y: number) => `${Math.round(x * 100)},${Math.round(y * 100)}`;
  const buckets = new Map<string, Segment[]>();
  for (const s of theirs) {
    const k = key((s[0] + s[2]) / 2, (s[1] + s[3]) / 2);
    const list = buckets.get(k);
    if (list) list.push(s);
    else buckets.set(k, [s]);
  }
  const near = (a: Segment, b: Segment) =>
    (Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance && Math.abs(a[2] - b[2]) <= tolerance && Math.abs(a[3] - b[3]) <= tolerance)
    || (Math.abs(a[0] - b[2]) <= tolerance && Math.abs(a[1] - b[3]) <= tolerance && Math.abs(a[2] - b[0]) <= tolerance && Math.abs(a[3] - b[1]) <= tolerance);
  const left: Segment[] = [];
  for (const s of ours) {
    const mx = Math.round(((s[0] + s[2]) / 2) * 100);
    const my = Math.round(((s[1] + s[3]) / 2) * 100);
    let found = false;
    for (let dx = -1; dx <= 1 && !found; dx++) {
      for (let dy = -1; dy <= 1 && !found; dy++) {
        const list = buckets.get(`${mx + dx},${my + dy}`);
        const at = list ? list.findIndex((t) => near(s, t)) : -1;
        if (list && at >= 0) {
          list.splice(at, 1);
          found = true;
        }
      }
    }
    if (!found) left.push(s);
  }
  return { ours: left, theirs: [...buckets.values()].flat() };
}

/** Contours a field with both and checks the segment sets are equal (see the file's comment). */
function expectSameSegmentsAsD3(values: Float32Array, nx: number, ny: number, levels: number[]): number {
  const result = engine.contour({ values, nx, ny, levels, smooth: false });
  let compared = 0;
  for (const [k, level] of levels.entries()) {
    const keep = (s: Segment) => !joinedSaddle(values, nx, level, s);
    const ours = ourSegments(result, k).filter(keep);
    const theirs = d3Segments(values, nx, ny, level).filter(keep);
    const left = unmatched(ours, theirs);
    expect({ level, ours: left.ours.slice(0, 3), theirs: left.theirs.slice(0, 3) }).toEqual({ level, ours: [], theirs: [] });
    expect(ours.length).toBe(theirs.length);
    compared += ours.length;
  }
  return compared;
}

/** A smooth field with hills, hollows and saddles between them. */
function wavyField(nx: number, ny: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const bumps = Array.from({ length: 12 }, () => ({ x: random() * nx, y: random() * ny, r: 3 + random() * 8, h: (random() - 0.5) * 20 }));
  const values = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      let v = 0.05 * i + 2 * Math.sin(i / 7) * Math.cos(j / 5);
      for (const b of bumps) v += b.h * Math.exp(-((i - b.x) ** 2 + (j - b.y) ** 2) / (b.r * b.r));
      values[j * nx + i] = v;
    }
  }
  return values;
}

function noiseField(nx: number, ny: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: nx * ny }, () => Math.round(random() * 1000) / 10);
}

describe('Engine.contour against d3-contour', () => {
  it('gives the same segments on a smooth synthetic field', () => {
    const values = wavyField(90, 60, 7);
    const levels = [-9.3, -5.1, -2.7, -0.9, 0.4, 1.3, 2.9, 4.6, 7.7, 10.1];
    expect(expectSameSegmentsAsD3(values, 90, 60, levels)).toBeGreaterThan(500);
  });

  it('gives the same segments on seeded noise, where most cells are saddles or next to one', () => {
    const values = noiseField(64, 48, 3);
    expect(expectSameSegmentsAsD3(values, 64, 48, [10.05, 33.35, 50.05, 71.45, 90.05])).toBeGreaterThan(2000);
  });
});

describeWithFixtures('Engine.contour on the GFS 0.25° 500 hPa height (1440x721)', () => {
  it('gives the same segments as d3-contour every 120 m', async () => {
    const bytes = await readFixture('grib2/gfs0p25_gh500_20201026T00_f024_t5.3.grib2');
    const [info] = inventory(bytes);
    const field = toNorthUp(info, await decodeField(engine, bytes, info));
    expect([field.Ni, field.Nj]).toEqual([1440, 721]);
    const levels: number[] = [];
    for (let h = 4800; h <= 6000; h += 120) levels.push(h);
    expect(expectSameSegmentsAsD3(field.values, field.Ni, field.Nj, levels)).toBeGreaterThan(10_000);
  });
});

describe('Engine.contour', () => {
  it('resolves a saddle by the mean of its corners, both ways', () => {
    // Top-left and bottom-right above 0.5, centre mean 0.525.
    const values = Float32Array.of(1, 0, 0.2, 0.9);
    const joined = engine.contour({ values, nx: 2, ny: 2, levels: [0.5], smooth: false });
    // Centre above: the two above are joined, the lines cut off the top-right and bottom-left corners.
    expect(joined.lines.map((l) => [l.count, l.closed])).toEqual([[2, false], [2, false]]);
    expect(unmatched(ourSegments(joined, 0), [[0.5, 0, 1, 0.5 / 0.9], [0, 0.625, 0.3 / 0.7, 1]])).toEqual({ ours: [], theirs: [] });
    // Centre below 0.55: the lines cut off the two corners above.
    const apart = engine.contour({ values, nx: 2, ny: 2, levels: [0.55], smooth: false });
    expect(unmatched(ourSegments(apart, 0), [[0, 0.45 / 0.8, 0.45, 0], [1, 0.55 / 0.9, 0.35 / 0.7, 1]])).toEqual({ ours: [], theirs: [] });
    // The other diagonal: top-right and bottom-left above; the centre above joins them.
    const other = engine.contour({ values: Float32Array.of(0, 1, 0.9, 0.2), nx: 2, ny: 2, levels: [0.5], smooth: false });
    expect(unmatched(ourSegments(other, 0), [[0, 0.5 / 0.9, 0.5, 0], [1, 0.625, 0.4 / 0.7, 1]])).toEqual({ ours: [], theirs: [] });
  });

  it('draws nothing in cells with a NaN corner and leaves every other segment as it was', () => {
    const nx = 40;
    const ny = 30;
    const values = wavyField(nx, ny, 11);
    const holed = values.slice();
    const hole = (i: number, j: number) => i >= 15 && i <= 22 && j >= 10 && j <= 16;
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) if (hole(i, j)) holed[j * nx + i] = NaN;
    const levels = [-3.1, -0.7, 0.9, 2.3, 4.4];
    const whole = engine.contour({ values, nx, ny, levels, smooth: false });
    const cut = engine.contour({ values: holed, nx, ny, levels, smooth: false });
    const touchesHole = (s: Segment) => {
      const i = Math.floor((s[0] + s[2]) / 2);
      const j = Math.floor((s[1] + s[3]) / 2);
      return hole(i, j) || hole(i + 1, j) || hole(i, j + 1) || hole(i + 1, j + 1);
    };
    let endsAtHole = 0;
    for (const k of levels.keys()) {
      const cutSegments = ourSegments(cut, k);
      expect(cutSegments.filter(touchesHole)).toEqual([]);
      expect(unmatched(cutSegments, ourSegments(whole, k).filter((s) => !touchesHole(s)), 0)).toEqual({ ours: [], theirs: [] });
    }
    for (const line of cut.lines) {
      expect(Number.isFinite(cut.points[2 * line.start])).toBe(true);
      if (line.closed) continue;
      for (const end of [line.start, line.start + line.count - 1]) {
        const x = cut.points[2 * end];
        const y = cut.points[2 * end + 1];
        const onBorder = x === 0 || y === 0 || x === nx - 1 || y === ny - 1;
        // An end inside the grid is on the edge of the hole's ring of cells.
        if (!onBorder) {
          expect(x >= 14 && x <= 23 && y >= 9 && y <= 17).toBe(true);
          endsAtHole++;
        }
      }
    }
    expect(endsAtHole).toBeGreaterThan(0);
  });

  it('closes rings around a hill, without repeating the first vertex', () => {
    const nx = 50;
    const ny = 40;
    const values = new Float32Array(nx * ny);
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) values[j * nx + i] = 100 * Math.exp(-((i - 24.3) ** 2 + (j - 19.6) ** 2) / 80);
    const levels = [10.5, 30.5, 50.5, 70.5, 90.5];
    const result = engine.contour({ values, nx, ny, levels, smooth: false });
    expect(result.lines.map((l) => [l.level, l.closed, l.xShift])).toEqual(levels.map((_, k) => [k, true, 0]));
    for (const line of result.lines) {
      const p = result.points;
      const first = [p[2 * line.start], p[2 * line.start + 1]];
      const last = [p[2 * (line.start + line.count - 1)], p[2 * (line.start + line.count - 1) + 1]];
      expect(last).not.toEqual(first);
      // Every segment, the closing one included, within one cell; every vertex on the level.
      for (const s of ourSegments(result, line.level)) expect(Math.hypot(s[2] - s[0], s[3] - s[1])).toBeLessThanOrEqual(Math.SQRT2 + 1e-6);
      const radius = Math.sqrt(-80 * Math.log(levels[line.level] / 100));
      for (let k = 0; k < line.count; k++) {
        expect(Math.hypot(p[2 * (line.start + k)] - 24.3, p[2 * (line.start + k) + 1] - 19.6)).toBeCloseTo(radius, 0);
      }
    }
  });

  it('joins lines across the seam of a wrap grid', () => {
    const nx = 72;
    const ny = 36;
    // A low centred on column 0, and heights rising northward with a wave: lines round the globe.
    const low = new Float32Array(nx * ny);
    const belt = new Float32Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const dx = Math.min(i, nx - i);
        low[j * nx + i] = 1000 - 30 * Math.exp(-(dx * dx + (j - 18.2) ** 2) / 40);
        belt[j * nx + i] = 5000 + 20 * j + 15 * Math.sin((2 * Math.PI * i) / nx);
      }
    }
    const lowLevels = [975.5, 985.5, 995.5];
    const wrapped = engine.contour({ values: low, nx, ny, levels: lowLevels, wrap: true, smooth: false });
    expect(wrapped.lines.map((l) => [l.closed, l.xShift])).toEqual(lowLevels.map(() => [true, 0]));
    // Continuous x across the seam: no step of more than a cell.
    for (let k = 0; k < lowLevels.length; k++) for (const s of ourSegments(wrapped, k)) expect(Math.abs(s[2] - s[0])).toBeLessThanOrEqual(1);
    const xs = Array.from({ length: wrapped.points.length / 2 }, (_, k) => wrapped.points[2 * k]);
    expect(Math.min(...xs) < 0 || Math.max(...xs) > nx - 1).toBe(true);
    // Without wrap the low is cut by the border into two open lines per level.
    const cut = engine.contour({ values: low, nx, ny, levels: lowLevels, smooth: false });
    expect(cut.lines.map((l) => [l.level, l.closed])).toEqual([[0, false], [0, false], [1, false], [1, false], [2, false], [2, false]]);

    const beltLevels = [5200.5, 5400.5, 5600.5];
    const around = engine.contour({ values: belt, nx, ny, levels: beltLevels, wrap: true, smooth: false });
    expect(around.lines.map((l) => [l.closed, Math.abs(l.xShift)])).toEqual(beltLevels.map(() => [true, nx]));
    // At least one vertex per column: the line crosses every column line once.
    for (const line of around.lines) expect(line.count).toBeGreaterThanOrEqual(nx);
    const open = engine.contour({ values: belt, nx, ny, levels: beltLevels, smooth: false });
    expect(open.lines.map((l) => l.closed)).toEqual([false, false, false]);
  });

  it('smooths lines without moving the ends of open ones', () => {
    const values = wavyField(60, 40, 5);
    const levels = [-1.9, 0.6, 3.3];
    const raw = engine.contour({ values, nx: 60, ny: 40, levels, smooth: false });
    const smooth = engine.contour({ values, nx: 60, ny: 40, levels, smooth: true });
    expect(smooth.lines).toEqual(raw.lines);
    let moved = 0;
    for (const line of raw.lines) {
      for (let k = 0; k < line.count; k++) {
        const a = 2 * (line.start + k);
        const end = !line.closed && (k === 0 || k === line.count - 1);
        const d = Math.hypot(smooth.points[a] - raw.points[a], smooth.points[a + 1] - raw.points[a + 1]);
        if (end) expect(d).toBe(0);
        else if (d > 1e-4) moved++;
        // A pass of the 1-2-1 filter moves a vertex by under half a cell.
        expect(d).toBeLessThan(0.71);
      }
    }
    expect(moved).toBeGreaterThan(raw.points.length / 4);
  });

  it('contours a 1440x721 global field at 40 levels and gives its memory back', () => {
    const nx = 1440;
    const ny = 721;
    const values = new Float32Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const lon = (i / nx) * 2 * Math.PI;
        const lat = ((90 - j / 4) * Math.PI) / 180;
        values[j * nx + i] = 101_000 + 1500 * Math.sin(3 * lon) * Math.cos(lat) ** 2 + 800 * Math.cos(5 * lon + 2 * lat) * Math.sin(2 * lat);
      }
    }
    const before = engine.stats().liveBytes;
    const levels = Array.from({ length: 40 }, (_, k) => 99_000 + k * 100);
    const result = engine.contour({ values, nx, ny, levels, wrap: true });
    expect(result.lines.length).toBeGreaterThan(100);
    expect(result.points.every(Number.isFinite)).toBe(true);
    const last = result.lines[result.lines.length - 1];
    expect(last.start + last.count).toBe(result.points.length / 2);
    expect(engine.stats().liveBytes).toBe(before);
  });

  it('refuses bad grids and levels with a clear error', () => {
    const values = new Float32Array(12);
    expect(() => engine.contour({ values, nx: 4, ny: 4, levels: [1] })).toThrow(/12 values for a 4x4 grid/);
    expect(() => engine.contour({ values, nx: 1, ny: 12, levels: [1] })).toThrow(/at least 2x2/);
    expect(() => engine.contour({ values, nx: 4, ny: 3, levels: [Number.NaN] })).toThrow(/finite/);
    expect(() => engine.extrema({ values, nx: 4, ny: 3, radius: 2 })).toThrow(/radius 2/);
  });
});

describe('Engine.extrema', () => {
  const nx = 120;
  const ny = 60;
  function twoLows(): Float32Array {
    const values = new Float32Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        values[j * nx + i] = 101_300 + 8 * i - 2000 * Math.exp(-((i - 30) ** 2 + (j - 20) ** 2) / 60) - 1500 * Math.exp(-((i - 85) ** 2 + (j - 38) ** 2) / 90);
      }
    }
    return values;
  }

  it('finds the two lows of a synthetic pressure field, and no high on its slope', () => {
    const found = engine.extrema({ values: twoLows(), nx, ny, radius: 8 });
    expect(found.map((e) => [e.kind, Math.round(e.x), Math.round(e.y)])).toEqual([['min', 30, 20], ['min', 85, 38]]);
    expect(found[0].value).toBeCloseTo(twoLows()[20 * nx + 30], 3);
  });

  it('gives one marker per plateau, at its middle', () => {
    const values = twoLows();
    // The bottom of the first low made flat over a 5x3 patch of nodes.
    const floor = Math.min(...values) - 10;
    for (let j = 19; j <= 21; j++) for (let i = 28; i <= 32; i++) values[j * nx + i] = floor;
    const found = engine.extrema({ values, nx, ny, radius: 8 });
    expect(found.map((e) => [e.kind, e.x, e.y])).toEqual([['min', 30, 20], ['min', 85, 38]]);
  });

  it('finds a high across the seam of a wrap grid and ignores NaN nodes', () => {
    const values = new Float32Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const dx = Math.min(i, nx - i);
        values[j * nx + i] = 1000 + 30 * Math.exp(-(dx * dx + (j - 30) ** 2) / 50) - 0.05 * dx - 0.01 * (j - 30) ** 2;
      }
    }
    values[10 * nx + 60] = Number.NaN;
    const found = engine.extrema({ values, nx, ny, radius: 6, wrap: true });
    expect(found.filter((e) => e.kind === 'max').map((e) => [e.x, e.y])).toEqual([[0, 30]]);
    expect(engine.extrema({ values, nx, ny, radius: 6 }).filter((e) => e.kind === 'max')).toEqual([]);
  });
});
