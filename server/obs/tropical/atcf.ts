/**
 * ATCF a-deck and b-deck text (NHC ftp.nhc.noaa.gov/atcf/{aid_public,btk}, JTWC's best tracks):
 * one comma-separated record per line, as the ATCF manual describes it ("ATCF data format",
 * https://www.nrlmry.navy.mil/atcf_web/docs/database/new/abdeck.txt):
 *
 *   BASIN, CY, YYYYMMDDHH, TECHNUM/MIN, TECH, TAU, LatN/S, LonE/W, VMAX, MSLP, TY, RAD, WINDCODE,
 *   RAD1, RAD2, RAD3, RAD4, POUTER, ROUTER, RMW, GUSTS, EYE, SUBREGION, MAXSEAS, INITIALS, DIR,
 *   SPEED, STORMNAME, DEPTH, ...
 *
 * Latitude and longitude in tenths of a degree with a hemisphere letter (`184N`, `1310E`), VMAX
 * knots, MSLP hPa, TY the storm type (TD, TS, TY, ST, HU, EX, ...), RAD the wind threshold of the
 * line's radii (34, 50 or 64 kt; 0 none) with WINDCODE NEQ (radii per quadrant NE, SE, SW, NW, nm)
 * or AAA (one radius all round). A fix with radii has one line per threshold. In a b-deck TECH is
 * BEST and TAU 0; in an a-deck each aid (OFCL the official forecast, JTWC's JTWC, CARQ ...) has
 * lines per forecast hour TAU.
 */

import type { Basin } from '../../../common/tropical/category.ts';
import { BASINS } from '../../../common/tropical/category.ts';
import { HOUR_MS } from '../../../common/time.ts';

/** A line or file that is not ATCF as the manual describes it: what, and where. */
export class AtcfFormatError extends Error {
  constructor(
    readonly kind: 'truncated' | 'garbled' | 'empty',
    readonly line: number,
    message: string,
  ) {
    super(`ATCF ${kind}, line ${line}: ${message}`);
    this.name = 'AtcfFormatError';
  }
}

export type Quadrants = [number, number, number, number];

export interface AtcfRecord {
  basin: Basin;
  /** Cyclone number in the basin's season. */
  number: number;
  /** Synoptic time of the record (the forecast's base time in an a-deck), ms. */
  time: number;
  tech: string;
  /** Forecast hour (0 in a b-deck). */
  tau: number;
  lat: number;
  lon: number;
  windKt: number | null;
  pressureHpa: number | null;
  type: string;
  radii: { r34: Quadrants | null; r50: Quadrants | null; r64: Quadrants | null };
  gustKt: number | null;
  name: string;
}

/** Fields up to TY (storm type): a shorter line was cut. */
const MIN_FIELDS = 11;

function garbled(line: number, what: string): never {
  throw new AtcfFormatError('garbled', line, what);
}

function integer(text: string, line: number, what: string): number {
  if (!/^-?\d+$/.test(text)) garbled(line, `${what} "${text}" is not an integer`);
  return Number(text);
}

/** `184N` / `1310E` in tenths of a degree. */
function coordinate(text: string, line: number, positive: string, negative: string, limit: number): number {
  const m = /^(\d{1,4})([A-Z])$/.exec(text);
  if (!m || (m[2] !== positive && m[2] !== negative)) garbled(line, `coordinate "${text}" is not tenths of a degree with ${positive}/${negative}`);
  const value = (Number(m[1]) / 10) * (m[2] === negative ? -1 : 1);
  if (Math.abs(value) > limit) garbled(line, `coordinate "${text}" is beyond ${limit}°`);
  return value;
}

/** YYYYMMDDHH as UTC ms. */
export function atcfTime(text: string, line = 0): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) garbled(line, `time "${text}" is not YYYYMMDDHH`);
  const [y, mo, d, h] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  const t = Date.UTC(y, mo - 1, d, h);
  const back = new Date(t);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23) garbled(line, `time "${text}" is not a date`);
  return t;
}

/** The ATCF sub-basins of JTWC's decks folded into the basins of common/tropical/category.ts. */
function basinOf(text: string, line: number): Basin {
  const b = text === 'SI' || text === 'SP' || text === 'SQ' ? 'SH' : text === 'BB' || text === 'AS' || text === 'NI' ? 'IO' : text;
  if (!(BASINS as readonly string[]).includes(b)) garbled(line, `basin "${text}" is not an ATCF basin`);
  return b as Basin;
}

/** 0 or blank in VMAX/MSLP means not given. */
function optional(text: string, line: number, what: string, max: number): number | null {
  if (text === '') return null;
  const v = integer(text, line, what);
  if (v < 0 || v > max) garbled(line, `${what} ${v} is out of range`);
  return v === 0 ? null : v;
}

/**
 * The records of an a-deck or b-deck, lines of the same fix (time, aid, hour) merged into one with
 * their 34/50/64 kt radii. A file that ends inside a line, a line with too few fields, or a field
 * that is not what the manual says is refused with an AtcfFormatError: nothing of it is kept.
 */
export function parseAtcf(text: string): AtcfRecord[] {
  const lines = text.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (!lines.some((l) => l.trim())) throw new AtcfFormatError('empty', 0, 'no records');
  // Every record ends with a line break: a file without one at the end was cut inside its last line.
  if (!text.endsWith('\n')) throw new AtcfFormatError('truncated', lines.length, 'the file ends inside a line');
  const records: AtcfRecord[] = [];
  const byKey = new Map<string, AtcfRecord>();
  lines.forEach((raw, index) => {
    const n = index + 1;
    if (!raw.trim()) return;
    const f = raw.split(',').map((s) => s.trim());
    if (f.length < MIN_FIELDS) throw new AtcfFormatError('truncated', n, `${f.length} fields, at least ${MIN_FIELDS} expected`);
    const basin = basinOf(f[0], n);
    const number = integer(f[1], n, 'cyclone number');
    const time = atcfTime(f[2], n);
    const tech = f[4];
    if (!/^[A-Z0-9]{1,4}$/.test(tech)) garbled(n, `aid "${tech}" is not an ATCF technique`);
    const tau = integer(f[5], n, 'forecast hour');
    const lat = coordinate(f[6], n, 'N', 'S', 90);
    const lon = coordinate(f[7], n, 'E', 'W', 180);
    const windKt = optional(f[8], n, 'VMAX', 250);
    const pressureHpa = optional(f[9], n, 'MSLP', 1100);
    const type = f[10];
    if (type !== '' && !/^[A-Z0-9]{2}$/.test(type)) garbled(n, `storm type "${type}" is not two letters`);
    const key = `${tech}|${time}|${tau}`;
    let record = byKey.get(key);
    if (!record) {
      record = { basin, number, time, tech, tau, lat, lon, windKt, pressureHpa, type, radii: { r34: null, r50: null, r64: null }, gustKt: null, name: '' };
      byKey.set(key, record);
      records.push(record);
    }
    if (f.length > 11 && f[11] !== '' && f[11] !== '0') {
      if (f.length < 17) throw new AtcfFormatError('truncated', n, `wind radii cut after ${f.length} fields`);
      const threshold = integer(f[11], n, 'radii threshold');
      if (threshold !== 34 && threshold !== 50 && threshold !== 64) garbled(n, `radii threshold ${threshold} kt is not 34, 50 or 64`);
      const code = f[12];
      const r = [13, 14, 15, 16].map((i) => integer(f[i] || '0', n, 'wind radius'));
      if (r.some((v) => v < 0 || v > 1500)) garbled(n, `wind radius out of range`);
      const quadrants: Quadrants = code === 'AAA' ? [r[0], r[0], r[0], r[0]] : code === 'NEQ' || code === '' ? [r[0], r[1], r[2], r[3]] : garbled(n, `wind code "${code}" is not NEQ or AAA`);
      record.radii[`r${threshold}` as 'r34' | 'r50' | 'r64'] = quadrants;
    }
    if (f.length > 20 && f[20] !== '') record.gustKt = optional(f[20], n, 'gusts', 300);
    if (f.length > 27 && f[27] !== '') record.name = f[27];
  });
  return records;
}

/** Forecast valid time of an a-deck record. */
export function validTime(r: AtcfRecord): number {
  return r.time + r.tau * HOUR_MS;
}

/** The storm's name as its latest record gives it (decks leave the name blank on some lines). */
export function stormName(records: readonly AtcfRecord[]): string {
  for (let i = records.length - 1; i >= 0; i--) if (records[i].name) return records[i].name;
  return '';
}
