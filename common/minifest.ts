/**
 * The minifest (SPEC §3 "Minifest"): a run's reference time plus its forecast steps as
 * [step hours, from hour, to hour] ranges. Served at /metadata/v1.0/{directory}/minifest.json.
 */

import { HOUR_MS } from './time.ts';

export interface Minifest {
  /** Reference (run) time, ISO 8601 UTC. */
  ref: string;
  /** [step, from, to] in hours after ref, inclusive, ascending. */
  dst: [number, number, number][];
  /** When the run became visible, ISO 8601 UTC. */
  update?: string;
  /** Set for the generated demo product. */
  demo?: boolean;
  v?: string;
}

export interface Calendar {
  refTime: number;
  /** Valid times in ms, ascending, no duplicates. */
  timestamps: number[];
  start: number;
  end: number;
  /** The minifest's `layers` when it has them: tile file -> levels. Absent: every catalogue file (the demo). */
  layers?: Readonly<Record<string, readonly string[]>>;
}

export class MinifestError extends Error {
  override name = 'MinifestError';
}

/** Most steps a minifest may describe (a month of hourly steps); guards against hostile ranges. */
const MAX_STEPS = 24 * 31;

/** Validates a minifest (SPEC §5: one without ref or dst is rejected) and expands its steps. */
export function parseMinifest(input: unknown): Calendar {
  if (typeof input !== 'object' || input === null) throw new MinifestError('Minifest is not an object');
  // `layers`: ingested runs list the levels each tile file has (common/api/products.ts MINIFEST_ANSWER).
  const { ref, dst, layers } = input as Partial<Minifest> & { layers?: unknown };
  if (typeof ref !== 'string') throw new MinifestError('Minifest has no ref');
  const refTime = Date.parse(ref);
  if (!Number.isFinite(refTime)) throw new MinifestError(`Minifest ref "${ref}" is not a date`);
  if (!Array.isArray(dst) || dst.length === 0) throw new MinifestError('Minifest has no dst');
  const hours = new Set<number>();
  for (const range of dst) {
    if (!Array.isArray(range) || range.length !== 3 || !range.every((n) => Number.isInteger(n))) {
      throw new MinifestError(`Minifest dst entry ${JSON.stringify(range)} is not [step, from, to]`);
    }
    const [step, from, to] = range;
    if (step <= 0 || from < 0 || to < from) throw new MinifestError(`Minifest dst entry ${JSON.stringify(range)} is out of order`);
    for (let h = from; h <= to; h += step) {
      hours.add(h);
      if (hours.size > MAX_STEPS) throw new MinifestError('Minifest describes too many steps');
    }
  }
  const timestamps = [...hours].sort((a, b) => a - b).map((h) => refTime + h * HOUR_MS);
  const calendar: Calendar = { refTime, timestamps, start: timestamps[0], end: timestamps[timestamps.length - 1] };
  if (layers !== undefined) calendar.layers = parseLayers(layers);
  return calendar;
}

/** The minifest's `layers`: an object of tile file -> level idents. */
function parseLayers(layers: unknown): Record<string, string[]> {
  if (typeof layers !== 'object' || layers === null || Array.isArray(layers)) throw new MinifestError('Minifest layers is not an object');
  const out: Record<string, string[]> = {};
  for (const [file, levels] of Object.entries(layers)) {
    if (!Array.isArray(levels) || !levels.every((l) => typeof l === 'string')) {
      throw new MinifestError(`Minifest layers entry ${file} is not a list of levels`);
    }
    out[file] = [...levels] as string[];
  }
  return out;
}

/** The two steps around a time and the blend factor between them (0 = before, 1 = after). */
export function bracketSteps(calendar: Calendar, time: number): { before: number; after: number; t: number } {
  const ts = calendar.timestamps;
  if (time <= ts[0]) return { before: ts[0], after: ts[0], t: 0 };
  if (time >= ts[ts.length - 1]) return { before: ts[ts.length - 1], after: ts[ts.length - 1], t: 0 };
  let lo = 0;
  let hi = ts.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] <= time) lo = mid;
    else hi = mid;
  }
  const before = ts[lo];
  const after = ts[hi];
  return before === time ? { before, after: before, t: 0 } : { before, after, t: (time - before) / (after - before) };
}

/** The step nearest to a time. */
export function nearestStep(calendar: Calendar, time: number): number {
  const { before, after, t } = bracketSteps(calendar, time);
  return t < 0.5 ? before : after;
}

/** 2026112506 — the hour stamp used in tile paths. */
export function hourStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}`;
}

export function parseHourStamp(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h);
  return hourStamp(ms) === text ? ms : null;
}
