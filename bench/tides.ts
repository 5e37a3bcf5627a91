/**
 * Tide prediction (server/tides/predict.ts): a week of one station — its high and low waters and its
 * 10-minute curve (1 009 values), what one GET /tides/v1.0/tides/... for a week computes — for a
 * reference station (NOAA Friday Harbor, 37 constituents) and a subordinate one (its reference's
 * harmonics with offsets), the median of many runs. Baseline in the same run: the bare harmonic sum
 * of the same constituents at the same times (amplitude × cos(speed × t − phase), no nodal corrections,
 * no astronomical arguments, no extremes): the arithmetic floor of any prediction of that curve.
 * Run alone: npx tsx bench/tides.ts
 */

import { pathToFileURL } from 'node:url';
import { constituents as models } from '@neaps/tide-predictor';
import { stationsById, type Station } from '@neaps/tide-database';
import { DAY_MS } from '../common/time.ts';
import { TIDE_CURVE_STEP_MS } from '../common/tides.ts';
import { predictStation } from '../server/tides/predict.ts';
import { median } from './stats.ts';

const WARMUP = 5;
const RUNS = 40;
const FROM = Date.UTC(2026, 6, 15);
const TO = FROM + 7 * DAY_MS;
export const TIDE_BENCH_STATIONS = ['noaa/9449880', 'noaa/1610367'];

export interface TidesBenchResult {
  rows: { id: string; name: string; type: string; constituents: number; extremes: number; curve: number; predictMs: number; bareSumMs: number }[];
}

function medianMs(run: () => number): number {
  let sink = 0;
  for (let i = 0; i < WARMUP; i++) sink += run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    sink += run();
    times.push(performance.now() - started);
  }
  if (Number.isNaN(sink)) console.log(sink);
  return median(times);
}

/** The baseline: Σ A cos(ω t − φ) at every curve time, ω in degrees an hour (the constituent's speed). */
function bareSum(station: Station): number {
  const terms = station.harmonic_constituents
    .map((c) => ({ a: c.amplitude, w: (models[c.name]?.speed ?? Number.NaN) * Math.PI / 180, p: c.phase * Math.PI / 180 }))
    .filter((c) => Number.isFinite(c.w));
  let sum = 0;
  for (let t = FROM; t <= TO; t += TIDE_CURVE_STEP_MS) {
    const hours = (t - FROM) / 3_600_000;
    let h = 0;
    for (const c of terms) h += c.a * Math.cos(c.w * hours - c.p);
    sum += h;
  }
  return sum;
}

export function benchTides(): TidesBenchResult {
  return {
    rows: TIDE_BENCH_STATIONS.map((id) => {
      const station = stationsById.get(id)!;
      const once = predictStation(station, FROM, TO);
      return {
        id, name: station.name, type: station.type, constituents: station.harmonic_constituents.length,
        extremes: once.extremes.length, curve: once.curve.heights.length,
        predictMs: medianMs(() => predictStation(station, FROM, TO).curve.heights.length),
        bareSumMs: medianMs(() => bareSum(station)),
      };
    }),
  };
}

export function tidesSection(r: TidesBenchResult): string[] {
  return [
    `## Tide prediction: one station, one week (median of ${RUNS} runs)`,
    '',
    '| station | type | constituents | high/low waters | curve values | predict ms | bare harmonic sum ms | ratio |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.rows.map((row) => `| ${row.name} (${row.id}) | ${row.type} | ${row.constituents} | ${row.extremes} | ${row.curve} | ${row.predictMs.toFixed(2)} | ${row.bareSumMs.toFixed(3)} | ${(row.predictMs / row.bareSumMs).toFixed(1)}x |`),
    '',
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(tidesSection(benchTides()).join('\n'));
