/**
 * Isolines of a 1440x721 field (DESIGN.md budget: >= 5x faster than d3-contour on the same field,
 * same run): the real GFS 0.25° 500 hPa geopotential height (../shared/data), every 40 m over its
 * range, contoured by the engine (Engine.contour: WASM marching squares, lines joined, copied out)
 * and by d3-contour 4.0.3 (MultiPolygons of the same thresholds), alternately, so both see the same
 * machine. The ratio compares like with like: ours without wrap and without smoothing, which is
 * d3's work (marching squares, linear interpolation, segments joined); the production call (wrap,
 * one smoothing pass) and the H/L extrema are reported beside it. Deterministic input (a fixture,
 * nothing random), warm-up, a sink over the results.
 *
 *   npx tsx bench/isolines.ts          (after npm run build:engine)
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { contours } from 'd3-contour';
import { Engine } from '../engine/engine.ts';
import { decodeField, inventory, toNorthUp } from '../engine/grib/index.ts';
import { median } from './stats.ts';

const DATA = new URL('../../shared/data/', import.meta.url);
const FIXTURE = 'grib2/gfs0p25_gh500_20201026T00_f024_t5.3.grib2';
/** Isohypse spacing, m (common/isolines.ts: gh every 40 m). */
const STEP_M = 40;
const WARM_UP = 2;
/** Alternating rounds: one d3-contour run and OURS_PER_ROUND engine runs each. */
const ROUNDS = 7;
const OURS_PER_ROUND = 3;
/** H/L square half-width, nodes. */
const EXTREMA_RADIUS = 20;
export const ISOLINES_RATIO_BUDGET = 5;

export interface IsolinesBenchResult {
  field: string;
  nx: number;
  ny: number;
  levels: number;
  /** Medians, ms. */
  oursMs: number;
  d3Ms: number;
  /** Ours with wrap and smoothing, as the map draws them. */
  oursDrawnMs: number;
  extremaMs: number;
  /** d3 median / ours median. */
  ratio: number;
  lines: number;
  vertices: number;
}

export async function benchIsolines(): Promise<IsolinesBenchResult | { error: string }> {
  const path = new URL(FIXTURE, DATA);
  if (!existsSync(fileURLToPath(path))) return { error: `${fileURLToPath(path)} is absent` };
  const engine = await Engine.create(await WebAssembly.compile(await readFile(new URL('../engine/build/release.wasm', import.meta.url))));
  const bytes = new Uint8Array(await readFile(path));
  const [info] = inventory(bytes);
  const { values, Ni: nx, Nj: ny } = toNorthUp(info, await decodeField(engine, bytes, info));
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const levels: number[] = [];
  for (let h = Math.ceil(min / STEP_M) * STEP_M; h <= max; h += STEP_M) levels.push(h);

  let sink = 0;
  const ours = () => {
    const r = engine.contour({ values, nx, ny, levels, smooth: false });
    sink += r.points.length + r.lines.length;
    return r;
  };
  const drawn = () => {
    const r = engine.contour({ values, nx, ny, levels, wrap: true, smooth: true });
    sink += r.points.length;
  };
  const extrema = () => {
    sink += engine.extrema({ values, nx, ny, radius: EXTREMA_RADIUS, wrap: true }).length;
  };
  const d3 = () => {
    for (const polygon of contours().size([nx, ny]).thresholds(levels)(values as unknown as number[])) sink += polygon.coordinates.length;
  };
  const time = (run: () => unknown, into: number[]) => {
    const started = performance.now();
    run();
    into.push(performance.now() - started);
  };
  for (let i = 0; i < WARM_UP; i++) {
    ours();
    drawn();
    extrema();
    d3();
  }
  const oursMs: number[] = [];
  const drawnMs: number[] = [];
  const extremaMs: number[] = [];
  const d3Ms: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    time(d3, d3Ms);
    for (let k = 0; k < OURS_PER_ROUND; k++) {
      time(ours, oursMs);
      time(drawn, drawnMs);
      time(extrema, extremaMs);
    }
  }
  if (!Number.isFinite(sink)) throw new Error(`Isolines bench sink is ${sink}`);
  const last = ours();
  const result = {
    field: 'GFS 0.25° 500 hPa geopotential height, 2020-10-26 00 UTC +24 h',
    nx,
    ny,
    levels: levels.length,
    oursMs: median(oursMs),
    d3Ms: median(d3Ms),
    oursDrawnMs: median(drawnMs),
    extremaMs: median(extremaMs),
    ratio: median(d3Ms) / median(oursMs),
    lines: last.lines.length,
    vertices: last.points.length / 2,
  };
  return result;
}

export function isolinesCheck(r: IsolinesBenchResult | { error: string }): { what: string; budget: string; measured: string; ok: boolean } {
  const what = 'isolines of a 1440x721 field (GFS gh500, 40 m), WASM vs d3-contour, Node, same run';
  if ('error' in r) return { what, budget: `>= ${ISOLINES_RATIO_BUDGET}x`, measured: `not measured: ${r.error}`, ok: false };
  return {
    what,
    budget: `>= ${ISOLINES_RATIO_BUDGET}x`,
    measured: `${r.ratio.toFixed(1)}x (${r.oursMs.toFixed(1)} ms vs ${r.d3Ms.toFixed(0)} ms)`,
    ok: r.ratio >= ISOLINES_RATIO_BUDGET,
  };
}

export function isolinesSection(r: IsolinesBenchResult | { error: string }): string[] {
  if ('error' in r) return ['## Isolines (bench/isolines.ts)', '', `Not measured: ${r.error}`, ''];
  return [
    `## Isolines (bench/isolines.ts): ${r.field}, ${r.nx}x${r.ny}, ${r.levels} levels every ${STEP_M} m`,
    '',
    `Medians of ${ROUNDS * OURS_PER_ROUND} engine runs and ${ROUNDS} d3-contour runs, alternating. Ours gives ${r.lines} lines, ${r.vertices} vertices.`,
    '',
    '| case | ms (median) |',
    '| --- | ---: |',
    `| Engine.contour, no wrap, unsmoothed (d3's work) | ${r.oursMs.toFixed(2)} |`,
    `| d3-contour 4.0.3, the same thresholds | ${r.d3Ms.toFixed(1)} |`,
    `| Engine.contour, wrap + one smoothing pass (as drawn) | ${r.oursDrawnMs.toFixed(2)} |`,
    `| Engine.extrema, radius ${EXTREMA_RADIUS} nodes, wrap | ${r.extremaMs.toFixed(2)} |`,
    '',
    `d3-contour / ours: **${r.ratio.toFixed(1)}x** (budget >= ${ISOLINES_RATIO_BUDGET}x).`,
    '',
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchIsolines();
  console.log(isolinesSection(r).join('\n'));
  console.log(JSON.stringify(isolinesCheck(r)));
}
