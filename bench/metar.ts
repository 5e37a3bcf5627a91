/**
 * METAR decoding (issue target: >= 20 000 reports/s): common/aviation/metar.ts decodeMetar
 * (sanitising, metar-taf-parser, the refusal rules, base units and the flight category) on the
 * real reports of ../shared/data/text/metar-taf (each fixture's report and the one glued after
 * it, and the sanitising cases), drawn in a seeded order, against metar-taf-parser's parseMetar
 * alone on the same reports in the same run (the baseline: what our layer costs on top).
 * Warm-up, then the median of several timed passes; a sink keeps the results alive.
 * Run alone: npx tsx bench/metar.ts
 */

import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseMetar } from 'metar-taf-parser';
import { decodeMetar } from '../common/aviation/metar.ts';
import { seededRandom } from '../common/seededRandom.ts';
import { median } from './stats.ts';

export const METAR_DECODE_BUDGET_PER_S = 20_000;
const DIR = new URL('../../shared/data/text/metar-taf/', import.meta.url);
const REPORTS = 20_000;
const WARMUP_PASSES = 2;
const PASSES = 7;

export interface MetarBenchResult {
  distinct: number;
  reports: number;
  oursPerS: number;
  parserPerS: number;
  refused: number;
}

async function corpus(): Promise<string[]> {
  const out: string[] = [];
  for (const station of ['EGLL', 'KJFK', 'KMCO', 'PHNL']) {
    const raw = (JSON.parse(await readFile(new URL(`metar_${station}.json`, DIR), 'utf8')) as { data: { raw: string } }).data.raw;
    out.push(raw);
    // The report glued after the first is a real report of its own.
    const second = raw.indexOf(` ${station} `, 5);
    if (second > 0) out.push(raw.slice(second + 1));
  }
  const cases = JSON.parse(await readFile(new URL('metar_sanitize_cases.json', DIR), 'utf8')) as { report: string }[];
  out.push(...cases.map((c) => c.report));
  return out;
}

function perSecond(reports: readonly string[], decode: (raw: string) => unknown): number {
  let sink = 0;
  const pass = () => {
    const started = performance.now();
    for (const r of reports) {
      try {
        if (decode(r)) sink++;
      } catch {
        sink--;
      }
    }
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP_PASSES; i++) pass();
  const times: number[] = [];
  for (let i = 0; i < PASSES; i++) times.push(pass());
  if (sink === 0.5) console.log(sink);
  return reports.length / (median(times) / 1000);
}

export async function benchMetar(): Promise<MetarBenchResult> {
  const distinct = await corpus();
  const random = seededRandom(16);
  const reports = Array.from({ length: REPORTS }, () => distinct[Math.floor(random() * distinct.length)]);
  const now = Date.UTC(2023, 9, 17, 6);
  let refused = 0;
  for (const r of distinct) {
    try {
      decodeMetar(r, now);
    } catch {
      refused++;
    }
  }
  return {
    distinct: distinct.length,
    reports: reports.length,
    oursPerS: perSecond(reports, (r) => decodeMetar(r, now)),
    parserPerS: perSecond(reports, (r) => parseMetar(r)),
    refused,
  };
}

export function metarCheck(r: MetarBenchResult): { what: string; budget: string; measured: string; ok: boolean } {
  return {
    what: `METAR decode (sanitise, parse, refuse, units, flight category), ${r.distinct} real reports drawn ${r.reports} times`,
    budget: `>= ${METAR_DECODE_BUDGET_PER_S} reports/s`,
    measured: `${Math.round(r.oursPerS)} reports/s (metar-taf-parser alone: ${Math.round(r.parserPerS)}/s, ${(r.oursPerS / r.parserPerS).toFixed(2)}x)`,
    ok: r.oursPerS >= METAR_DECODE_BUDGET_PER_S,
  };
}

export function metarSection(r: MetarBenchResult): string[] {
  return [
    `## METAR decoding (bench/metar.ts, ${r.reports} reports, median of ${PASSES} passes)`,
    '',
    '| decoder | reports/s |',
    '| --- | ---: |',
    `| decodeMetar (common/aviation/metar.ts) | ${Math.round(r.oursPerS)} |`,
    `| metar-taf-parser parseMetar alone | ${Math.round(r.parserPerS)} |`,
    '',
    `${r.refused} of the ${r.distinct} distinct reports are refused (malformed: no time, nothing observed).`,
    '',
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchMetar();
  console.log(metarSection(r).join('\n'));
  console.log(metarCheck(r));
}
