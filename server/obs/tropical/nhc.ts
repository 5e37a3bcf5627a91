/**
 * NHC's active storms and forecast advisories. No upstream file of either is among the fixtures:
 * both readers are built from NHC's documentation and product examples, and their tests say so.
 *
 * - CurrentStorms.json (https://www.nhc.noaa.gov/CurrentStorms.json; documented by NHC's sample,
 *   https://www.nhc.noaa.gov/productexamples/NHC_JSON_Sample.json): `activeStorms`, each with its
 *   ATCF `id` (`al142018`), `name`, `classification`, `intensity` (kt, a string), `pressure`,
 *   `latitudeNumeric`, `longitudeNumeric`, `lastUpdate` (ISO time) and the `forecastAdvisory`
 *   (`advNum`, `issuance`, `url` of the TCM text).
 * - The Tropical Cyclone Forecast/Advisory (TCM; NWS Directive 10-601, "Tropical Cyclone
 *   Forecast/Advisory", section 3): its header line with the ATCF id, the issuance time
 *   (`0300 UTC WED OCT 10 2018`), the current centre (`... CENTER LOCATED NEAR 25.6N  86.4W AT
 *   10/0300Z`) with `MAX SUSTAINED WINDS 105 KT WITH GUSTS TO 130 KT`, then per forecast hour
 *   `FORECAST VALID 10/1200Z 27.4N  86.2W` (or `OUTLOOK VALID ...` for days 4-5) followed by
 *   `MAX WIND 115 KT...GUSTS 140 KT.`; `...DISSIPATED` ends the track.
 */

import { HOUR_MS } from '../../../common/time.ts';

export class NhcFormatError extends Error {
  constructor(
    readonly kind: 'truncated' | 'garbled' | 'empty',
    message: string,
  ) {
    super(`NHC ${kind}: ${message}`);
    this.name = 'NhcFormatError';
  }
}

export interface NhcActiveStorm {
  /** ATCF id in lower case (`al142018`). */
  id: string;
  name: string;
  classification: string;
  windKt: number | null;
  pressureHpa: number | null;
  lat: number;
  lon: number;
  lastUpdate: number;
  /** URL of the latest forecast/advisory (TCM) text, when NHC gives one. */
  forecastAdvisoryUrl: string | null;
}

const ID = /^(al|ep|cp)\d{6}$/;

function numberOrNull(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The storms of CurrentStorms.json; a document not of that shape is refused whole. */
export function parseCurrentStorms(text: string): NhcActiveStorm[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new NhcFormatError(text.trim() ? 'truncated' : 'empty', `CurrentStorms.json is not JSON (${(e as Error).message})`);
  }
  const list = (doc as { activeStorms?: unknown })?.activeStorms;
  if (!Array.isArray(list)) throw new NhcFormatError('garbled', 'CurrentStorms.json has no activeStorms list');
  return list.map((s: Record<string, unknown>, i) => {
    const id = String(s?.id ?? '').toLowerCase();
    if (!ID.test(id)) throw new NhcFormatError('garbled', `activeStorms[${i}].id "${s?.id}" is not an ATCF id`);
    const lat = Number(s.latitudeNumeric);
    const lon = Number(s.longitudeNumeric);
    if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) throw new NhcFormatError('garbled', `activeStorms[${i}] has no position`);
    const lastUpdate = Date.parse(String(s.lastUpdate));
    if (!Number.isFinite(lastUpdate)) throw new NhcFormatError('garbled', `activeStorms[${i}].lastUpdate "${s.lastUpdate}" is not a time`);
    const advisory = s.forecastAdvisory as { url?: unknown } | undefined;
    return {
      id,
      name: String(s.name ?? ''),
      classification: String(s.classification ?? ''),
      windKt: numberOrNull(s.intensity),
      pressureHpa: numberOrNull(s.pressure),
      lat,
      lon,
      lastUpdate,
      forecastAdvisoryUrl: typeof advisory?.url === 'string' ? advisory.url : null,
    };
  });
}

export interface AdvisoryPoint {
  /** Valid time, ms. */
  time: number;
  /** Hours after the advisory's current position. */
  hour: number;
  lat: number;
  lon: number;
  windKt: number | null;
  gustKt: number | null;
}

export interface ForecastAdvisory {
  /** ATCF id in lower case. */
  id: string;
  issued: number;
  /** The current position (hour 0), then the forecast and outlook points in time order. */
  points: AdvisoryPoint[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `DD/HHMMZ` after `issued`: the first such time at or after the issuance day (month rollover). */
function dayTime(day: number, hhmm: string, issued: number): number {
  const base = new Date(issued);
  let t = Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), day, Number(hhmm.slice(0, 2)), Number(hhmm.slice(2)));
  // A day number below the issuance day is in the next month (an advisory spans 5 days).
  if (day < base.getUTCDate() - 7) t = Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, day, Number(hhmm.slice(0, 2)), Number(hhmm.slice(2)));
  return t;
}

function latLon(lat: string, lon: string): [number, number] {
  const la = Number(lat.slice(0, -1)) * (lat.endsWith('S') ? -1 : 1);
  const lo = Number(lon.slice(0, -1)) * (lon.endsWith('W') ? -1 : 1);
  if (!(Math.abs(la) <= 90) || !(Math.abs(lo) <= 180)) throw new NhcFormatError('garbled', `position ${lat} ${lon} is off the Earth`);
  return [la, lo];
}

/**
 * The track of a forecast/advisory (TCM). A text without the header, the issuance time or the
 * current centre, or one cut before its closing `NEXT ADVISORY` / `$$`, is refused.
 */
export function parseForecastAdvisory(text: string): ForecastAdvisory {
  const t = text.replace(/\r/g, '');
  if (!t.trim()) throw new NhcFormatError('empty', 'no advisory text');
  const id = /\b(AL|EP|CP)(\d{2})(\d{4})\b/.exec(t);
  if (!id) throw new NhcFormatError('garbled', 'no ATCF id (e.g. AL142018) in the header');
  const issue = /^(\d{3,4}) UTC [A-Z]{3} ([A-Z]{3}) (\d{1,2}) (\d{4})$/m.exec(t);
  if (!issue || !MONTHS.includes(issue[2])) throw new NhcFormatError('garbled', 'no issuance time (e.g. "0300 UTC WED OCT 10 2018")');
  const hhmm = issue[1].padStart(4, '0');
  const issued = Date.UTC(Number(issue[4]), MONTHS.indexOf(issue[2]), Number(issue[3]), Number(hhmm.slice(0, 2)), Number(hhmm.slice(2)));
  if (!/NEXT ADVISORY|\$\$/.test(t)) throw new NhcFormatError('truncated', 'the advisory ends before "NEXT ADVISORY" / "$$"');
  const centre = /CENTER LOCATED NEAR\s+(\d+(?:\.\d)?[NS])\s+(\d+(?:\.\d)?[EW]) AT (\d{2})\/(\d{4})Z/.exec(t);
  if (!centre) throw new NhcFormatError('garbled', 'no "CENTER LOCATED NEAR" line');
  const t0 = dayTime(Number(centre[3]), centre[4], issued);
  const wind0 = /MAX SUSTAINED WINDS\s+(\d+) KT WITH GUSTS TO\s+(\d+) KT/.exec(t);
  const [lat0, lon0] = latLon(centre[1], centre[2]);
  const points: AdvisoryPoint[] = [{ time: t0, hour: 0, lat: lat0, lon: lon0, windKt: wind0 ? Number(wind0[1]) : null, gustKt: wind0 ? Number(wind0[2]) : null }];
  const block = /(?:FORECAST|OUTLOOK) VALID (\d{2})\/(\d{4})Z\s+(?:(\d+(?:\.\d)?[NS])\s+(\d+(?:\.\d)?[EW])([^\n]*)\n(?:MAX WIND\s+(\d+) KT\.\.\.GUSTS\s+(\d+) KT)?|\.\.\.DISSIPATED)/g;
  for (let m = block.exec(t); m; m = block.exec(t)) {
    if (!m[3]) break;
    const time = dayTime(Number(m[1]), m[2], issued);
    if (time <= points[points.length - 1].time) throw new NhcFormatError('garbled', `forecast time ${m[1]}/${m[2]}Z is not after the one before`);
    const [lat, lon] = latLon(m[3], m[4]);
    points.push({ time, hour: (time - t0) / HOUR_MS, lat, lon, windKt: m[6] ? Number(m[6]) : null, gustKt: m[7] ? Number(m[7]) : null });
  }
  return { id: `${id[1]}${id[2]}${id[3]}`.toLowerCase(), issued, points };
}
