/**
 * METAR and TAF decoding for the airport window and the metars POI layer (SPEC §2 /airport, §3 pois
 * "metars"), shared by the server (which refuses malformed reports before publishing) and the UI
 * (which shows the decoded report in the user's units). The grammar is metar-taf-parser's (WMO
 * FM 15 METAR / FM 51 TAF, with the North American variants); this module adds:
 *
 *   - sanitizeReport: the repairs of common transmission faults before parsing (a report glued to
 *     the previous one, split or glued groups, misspelt units), each one a case of
 *     ../shared/data/text/metar-taf/metar_sanitize_cases.json;
 *   - the refusal of reports the parser would only half read (no station, no time, NIL): a
 *     MetarFormatError names the fault and keeps the raw text for the log;
 *   - a flat, serialisable result in base units (m/s, m, °C, hPa, ft) with the flight category
 *     (flightCategory.ts).
 */

import {
  AltimeterUnit, DistanceUnit, parseMetar, parseTAFAsForecast, SpeedUnit, ValueIndicator,
  type CloudQuantity, type CloudType, type Descriptive, type ICloud, type IMetar, type Intensity, type IWeatherCondition, type IWind,
  type Phenomenon, type Visibility,
} from 'metar-taf-parser';
import { MINUTE_MS } from '../time.ts';
import { flightCategory, type FlightCategory } from './flightCategory.ts';

/** SPEC §9 Units: knots and statute miles in SI. */
const KT_TO_MS = 1852 / 3600;
const KMH_TO_MS = 1 / 3.6;
const STATUTE_MILE_M = 1609.344;
/** Standard inches of mercury to hectopascals (WMO No. 8, Annex 1.B: 1 inHg = 33.8639 hPa). */
const INHG_TO_HPA = 33.8639;

export class MetarFormatError extends Error {
  override readonly name = 'MetarFormatError';
  constructor(readonly raw: string, detail: string) {
    super(`${detail}: "${raw}"`);
  }
}

export interface DecodedWind {
  /** Degrees true the wind blows from; null: variable (VRB). */
  directionDeg: number | null;
  speedMs: number;
  gustMs: number | null;
  /** Variable between these directions (dddVddd), else null. */
  variableFromDeg: number | null;
  variableToDeg: number | null;
}

export interface DecodedCloud {
  cover: 'FEW' | 'SCT' | 'BKN' | 'OVC';
  /** Base, feet above the aerodrome; null: not measured (///). */
  baseFt: number | null;
  /** Convective type (CB, TCU), else null. */
  type: string | null;
}

export interface DecodedConditions {
  wind: DecodedWind | null;
  /** Prevailing visibility in metres; null: not reported. */
  visibilityM: number | null;
  /** The visibility is a lower bound (P6SM, 9999, CAVOK). */
  visibilityAtLeast: boolean;
  cavok: boolean;
  /** Present or forecast weather as coded (-SHRA, VCTS, FZFG). */
  weather: string[];
  clouds: DecodedCloud[];
  /** Vertical visibility into an obscured sky, feet; null: none reported. */
  verticalVisibilityFt: number | null;
  /** Lowest broken or overcast base or the vertical visibility, feet; null: no ceiling. */
  ceilingFt: number | null;
  flightCategory: FlightCategory | null;
}

export interface DecodedMetar extends DecodedConditions {
  station: string;
  /** Observation time, ms since the epoch. */
  time: number;
  /** The report as decoded (after sanitizeReport). */
  text: string;
  auto: boolean;
  temperatureC: number | null;
  dewPointC: number | null;
  /** Altimeter setting (QNH), hPa. */
  qnhHpa: number | null;
  /** Remarks (RMK ...) as written. */
  remarks: string | null;
}

export interface DecodedTafPeriod extends DecodedConditions {
  /** null: the base forecast (first line); else FM, BECMG, TEMPO, INTER or PROB. */
  change: string | null;
  probability: number | null;
  from: number;
  to: number;
  text: string;
}

export interface DecodedTaf {
  station: string;
  issued: number;
  validFrom: number;
  validTo: number;
  text: string;
  periods: DecodedTafPeriod[];
}

// ---- sanitising ---------------------------------------------------------------------------------

/** Whole groups replaced by what they mean (metar_sanitize_cases.json "replaced"). */
const REPLACED_GROUPS: Readonly<Record<string, string>> = { CALM: '00000KT', RETS: 'TS', '6SPM': 'P6SM' };
/** Groups that carry nothing (all-missing wind, temperature) or nothing the METAR grammar allows. */
const EMPTY_GROUP = /^(?:\/{3,}(?:KT|MPS)?|KT|MPS|XX\/XX|\/\/\/\/\/\/\/)$/;
/** Groups written in two pieces: "Q 1000", "A 2992". */
const SPLIT_PREFIXES = new Set(['Q', 'A']);

function repairGroup(group: string): string {
  const replaced = REPLACED_GROUPS[group];
  if (replaced) return replaced;
  // Wind: misspelt units (TK, KTT), "GT" for the gust mark, VAB for VRB, a direction written as 3 digits then G.
  let m = /^(VRB|VAB|\d{3})(\d{2,3})?(?:G|GT)?(\d{2,3})?(KT|TK|KTS|MPS|MPSM|KMH)$/.exec(group);
  if (m) {
    const [, dir, speed, gust, unit] = m;
    const cleanUnit = unit === 'TK' || unit === 'KTS' ? 'KT' : unit === 'MPSM' ? 'MPS' : unit;
    const direction = dir === 'VAB' ? 'VRB' : dir;
    return `${direction}${speed ?? ''}${gust ? `G${gust}` : ''}${cleanUnit}`;
  }
  // "360G17G32KT": direction with the speed lost to a stray G.
  m = /^(\d{3})G(\d{2,3})G(\d{2,3})(KT|MPS)$/.exec(group);
  if (m) return `${m[1]}${m[2]}G${m[3]}${m[4]}`;
  // A variable-direction group with a unit: "200V300KT".
  m = /^(\d{3}V\d{3})(?:KT|MPS)$/.exec(group);
  if (m) return m[1];
  // Visibility with a stray leading slash: "/1/4SM".
  m = /^\/(\d\/\d{1,2}SM)$/.exec(group);
  if (m) return m[1];
  // Runway visual range with the unit cut: "R02L/4000VP6000F".
  m = /^(R\d{2}[LCR]?\/[PM]?\d{4}(?:V[PM]?\d{4})?)F$/.exec(group);
  if (m) return `${m[1]}FT`;
  return group;
}

/** Groups glued to the one before: "111200Z11020KT", "R36/1500DR18/P2000". */
function splitGlued(group: string): string[] {
  let m = /^(\d{6}Z)(.+)$/.exec(group);
  if (m) return [m[1], ...splitGlued(m[2])];
  m = /^(R\d{2}[LCR]?\/[PM]?\d{4}[UDN]?)(R\d{2}[LCR]?\/.+)$/.exec(group);
  if (m) return [m[1], ...splitGlued(m[2])];
  return [group];
}

/**
 * The report with transmission faults repaired (the cases of metar_sanitize_cases.json): cut at a
 * second report of the same station glued after it, the METAR/SPECI/TAF and COR words dropped, groups
 * split in two joined, glued groups split, misspelt groups repaired, repeated groups dropped,
 * all-missing groups dropped.
 */
export function sanitizeReport(raw: string): string {
  const groups = raw.trim().split(/\s+/);
  while (groups.length > 0 && /^(?:METAR|SPECI|TAF|COR)$/.test(groups[0])) groups.shift();
  const station = groups[0] ?? '';
  const out: string[] = [];
  let inRemarks = false;
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i];
    // A second report glued after the first: its station and a day-time group again.
    if (i > 0 && group === station && /^\d{6}Z$/.test(groups[i + 1] ?? '') && out.some((g) => /^\d{6}Z$/.test(g))) break;
    if (inRemarks) {
      out.push(group === 'A01' ? 'AO1' : group === 'A02' ? 'AO2' : group);
      continue;
    }
    if (group === 'RMK') {
      inRemarks = true;
      out.push(group);
      continue;
    }
    if (SPLIT_PREFIXES.has(group) && /^\d{4}$/.test(groups[i + 1] ?? '')) {
      out.push(`${group}${groups[++i]}`);
      continue;
    }
    // AUTO before the day-time group (the report's order is station, time, AUTO).
    if (group === 'AUTO' && !out.some((g) => /^\d{6}Z$/.test(g)) && groups.slice(i + 1).some((g) => /^\d{6}Z$/.test(g))) continue;
    for (const piece of splitGlued(group)) {
      const repaired = repairGroup(piece);
      if (EMPTY_GROUP.test(repaired)) continue;
      if (out.length > 0 && out[out.length - 1] === repaired) continue;
      out.push(repaired);
    }
  }
  return out.join(' ');
}

// ---- the fast path ------------------------------------------------------------------------------
//
// metar-taf-parser reads a plain report in 0.3-1.3 ms (it compiles a regular expression per weather
// phenomenon for every group, and builds its remark commands for each report): 1 800 reports/s
// where the metars layer needs well over 20 000 (bench/metar.ts). The groups nearly every report
// is made of are read here directly, into the parser's own shapes; a report with any other group
// before its trends or remarks goes to the parser whole. server/obs/metar/fixtures.test.ts checks
// that both paths read every fixture report alike.

const WIND = /^(\d{3}|VRB)(\d{2,3})(?:G(\d{2,3}))?(KT|MPS)$/;
const WIND_VARIATION = /^(\d{3})V(\d{3})$/;
const VISIBILITY_M = /^\d{4}$/;
const VISIBILITY_MIN = /^\d{4}(?:N|NE|E|SE|S|SW|W|NW)$/;
const VISIBILITY_SM = /^(P|M)?(\d{1,2})SM$/;
const VISIBILITY_SM_FRACTION = /^(?:(\d) )?(M)?(\d)\/(\d{1,2})SM$/;
const RVR = /^R\d{2}[LCR]?\/[PM]?\d{4}(?:V[PM]?\d{4})?(?:FT)?[UDN]?$/;
const WEATHER = /^(-|\+|VC)?(SH|MI|BC|PR|DR|TS|BL|FZ)?((?:RA|DZ|SN|SG|PL|IC|GR|GS|UP|FG|VA|BR|HZ|DU|FU|SA|PY|SQ|PO|TS|DS|SS|FC|NSW)*)$/;
const PHENOMENON = /RA|DZ|SN|SG|PL|IC|GR|GS|UP|FG|VA|BR|HZ|DU|FU|SA|PY|SQ|PO|TS|DS|SS|FC|NSW/g;
const CLOUD = /^(FEW|SCT|BKN|OVC)(\d{3}|\/\/\/)(CB|TCU)?$/;
const NO_CLOUD = /^(?:SKC|CLR|NSC|NCD)$/;
const VERTICAL_VISIBILITY = /^VV(\d{3})$/;
const TEMPERATURES = /^(M?)(\d{2})\/(M?)(\d{2})$/;
const ALTIMETER = /^([QA])(\d{4})$/;
/** Where the main body ends: trends and remarks (their contents are not decoded here). */
const BODY_END = new Set(['RMK', 'NOSIG', 'TEMPO', 'BECMG']);

type Body = Pick<IMetar, 'station' | 'day' | 'hour' | 'minute' | 'wind' | 'visibility' | 'cavok' | 'weatherConditions' | 'clouds'
  | 'verticalVisibility' | 'temperature' | 'dewPoint' | 'altimeter' | 'auto' | 'nil'>;

/** The main body of a sanitised report in the shapes metar-taf-parser gives, or null for a group not read here. */
function fastBody(text: string): Body | null {
  const groups = text.split(' ');
  const time = /^(\d{2})(\d{2})(\d{2})Z$/.exec(groups[1] ?? '');
  if (!time) return null;
  const body: Body = {
    station: groups[0], day: Number(time[1]), hour: Number(time[2]), minute: Number(time[3]), weatherConditions: [], clouds: [],
  };
  for (let i = 2; i < groups.length; i++) {
    let g = groups[i];
    if (BODY_END.has(g)) break;
    if (g === 'AUTO') { body.auto = true; continue; }
    if (g === 'NIL') { body.nil = true; continue; }
    let m = WIND.exec(g);
    if (m && !body.wind) {
      const unit = m[4] === 'MPS' ? SpeedUnit.MetersPerSecond : SpeedUnit.Knot;
      body.wind = { speed: Number(m[2]), direction: '', unit };
      if (m[1] !== 'VRB') body.wind.degrees = Number(m[1]);
      if (m[3] !== undefined) body.wind.gust = Number(m[3]);
      continue;
    }
    m = WIND_VARIATION.exec(g);
    if (m && body.wind && body.wind.minVariation === undefined) {
      body.wind.minVariation = Number(m[1]);
      body.wind.maxVariation = Number(m[2]);
      continue;
    }
    if (g === 'CAVOK') {
      body.cavok = true;
      body.visibility = { indicator: ValueIndicator.GreaterThan, value: 9999, unit: DistanceUnit.Meters };
      continue;
    }
    if (VISIBILITY_M.test(g) && !body.visibility) {
      body.visibility = { value: Number(g), unit: DistanceUnit.Meters };
      if (g === '9999') body.visibility.indicator = ValueIndicator.GreaterThan;
      continue;
    }
    if (VISIBILITY_MIN.test(g) && body.visibility) continue;
    if (/^\d$/.test(g) && /^\d\/\d{1,2}SM$/.test(groups[i + 1] ?? '')) g = `${g} ${groups[++i]}`;
    m = VISIBILITY_SM.exec(g);
    if (m && !body.visibility) {
      body.visibility = { value: Number(m[2]), unit: DistanceUnit.StatuteMiles };
      if (m[1]) body.visibility.indicator = m[1] === 'P' ? ValueIndicator.GreaterThan : ValueIndicator.LessThan;
      continue;
    }
    m = VISIBILITY_SM_FRACTION.exec(g);
    if (m && !body.visibility) {
      body.visibility = { value: Number(m[1] ?? 0) + Number(m[3]) / Number(m[4]), unit: DistanceUnit.StatuteMiles };
      if (m[2]) body.visibility.indicator = ValueIndicator.LessThan;
      continue;
    }
    if (RVR.test(g)) continue;
    m = CLOUD.exec(g);
    if (m) {
      const cloud: ICloud = { quantity: m[1] as CloudQuantity };
      if (m[2] !== '///') cloud.height = Number(m[2]) * 100;
      if (m[3]) cloud.type = m[3] as CloudType;
      body.clouds.push(cloud);
      continue;
    }
    if (NO_CLOUD.test(g)) continue;
    m = VERTICAL_VISIBILITY.exec(g);
    if (m) { body.verticalVisibility = Number(m[1]) * 100; continue; }
    m = TEMPERATURES.exec(g);
    if (m) {
      body.temperature = (m[1] ? -1 : 1) * Number(m[2]);
      body.dewPoint = (m[3] ? -1 : 1) * Number(m[4]);
      continue;
    }
    m = ALTIMETER.exec(g);
    if (m) {
      body.altimeter = m[1] === 'Q' ? { value: Number(m[2]), unit: AltimeterUnit.HPa } : { value: Number(m[2]) / 100, unit: AltimeterUnit.InHg };
      continue;
    }
    m = WEATHER.exec(g);
    if (m) {
      const [, intensity, descriptive, phenomena] = m;
      const w: IWeatherCondition = { phenomenons: phenomena ? (phenomena.match(PHENOMENON) as Phenomenon[]) : [] };
      if (intensity) w.intensity = intensity as Intensity;
      if (descriptive) w.descriptive = descriptive as Descriptive;
      // The parser's validity rule (isWeatherConditionValid): a phenomenon, a thunderstorm, or showers in the vicinity.
      if (w.phenomenons.length > 0 || descriptive === 'TS' || (intensity === 'VC' && descriptive === 'SH')) {
        body.weatherConditions.push(w);
        continue;
      }
    }
    return null;
  }
  return body;
}

// ---- decoding -----------------------------------------------------------------------------------

function speedMs(value: number | undefined, unit: string): number | null {
  if (value === undefined) return null;
  return unit === 'MPS' ? value : unit === 'KM/H' ? value * KMH_TO_MS : value * KT_TO_MS;
}

function decodeWind(wind: IWind | undefined): DecodedWind | null {
  if (!wind) return null;
  return {
    directionDeg: wind.degrees ?? null,
    speedMs: speedMs(wind.speed, wind.unit) ?? 0,
    gustMs: speedMs(wind.gust, wind.unit),
    variableFromDeg: wind.minVariation ?? null,
    variableToDeg: wind.maxVariation ?? null,
  };
}

function visibilityM(v: Visibility | undefined): number | null {
  if (!v) return null;
  return v.unit === 'SM' ? v.value * STATUTE_MILE_M : v.value;
}

function weatherCode(w: IWeatherCondition): string {
  return `${w.intensity ?? ''}${w.descriptive ?? ''}${w.phenomenons.join('')}`;
}

function decodeClouds(clouds: readonly ICloud[]): DecodedCloud[] {
  const out: DecodedCloud[] = [];
  for (const c of clouds) {
    if (c.quantity === 'FEW' || c.quantity === 'SCT' || c.quantity === 'BKN' || c.quantity === 'OVC') {
      out.push({ cover: c.quantity, baseFt: c.height ?? null, type: c.type ?? null });
    }
  }
  return out;
}

/** Sky condition groups the parser keeps no layer for. */
const CLEAR_SKY = /(?:^|\s)(?:SKC|CLR|NSC|NCD)(?:\s|$)/;

function conditions(w: {
  wind?: IWind; visibility?: Visibility; cavok?: true; weatherConditions: IWeatherCondition[]; clouds: ICloud[]; verticalVisibility?: number;
}, text: string): DecodedConditions {
  const clouds = decodeClouds(w.clouds);
  const vv = w.verticalVisibility ?? null;
  const layers = clouds.filter((c) => (c.cover === 'BKN' || c.cover === 'OVC') && c.baseFt !== null).map((c) => c.baseFt!);
  if (vv !== null) layers.push(vv);
  const ceilingFt = layers.length > 0 ? Math.min(...layers) : null;
  const cavok = w.cavok === true;
  const vis = visibilityM(w.visibility);
  const skyReported = cavok || clouds.length > 0 || vv !== null || CLEAR_SKY.test(text);
  return {
    wind: decodeWind(w.wind),
    visibilityM: vis,
    visibilityAtLeast: cavok || w.visibility?.indicator === 'P' || (w.visibility?.unit === 'm' && w.visibility.value >= 9999),
    cavok,
    weather: w.weatherConditions.map(weatherCode),
    clouds,
    verticalVisibilityFt: vv,
    ceilingFt,
    flightCategory: flightCategory(ceilingFt, vis === null ? null : vis / STATUTE_MILE_M, skyReported),
  };
}

/**
 * The time of a day-hour-minute group: the latest such moment not after `now` plus a little
 * (a report is dated at most an hour or so ahead by a clock off at the station).
 */
export function timeOfDayGroup(day: number, hour: number, minute: number, now: number): number {
  const ref = new Date(now + 60 * MINUTE_MS);
  for (let back = 0; back < 3; back++) {
    const candidate = Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth() - back, day, hour, minute);
    // Date.UTC rolls a day past the month's end into the next month: that month has no such day.
    if (new Date(candidate).getUTCDate() !== day) continue;
    if (candidate <= ref.getTime()) return candidate;
  }
  throw new RangeError(`no date for day ${day} before ${new Date(now).toISOString()}`);
}

function requireHeader(raw: string, station: string | undefined, day: number | undefined, hour: number | undefined, minute: number | undefined): void {
  if (!station || !/^[A-Z][A-Z0-9]{3}$/.test(station)) throw new MetarFormatError(raw, 'no station identifier');
  if (day === undefined || hour === undefined || minute === undefined) throw new MetarFormatError(raw, 'no day-time group');
  if (day < 1 || day > 31 || hour > 24 || minute > 59) throw new MetarFormatError(raw, 'impossible day-time group');
}

/** Station, then the day-time group (ddhhmmZ). */
const METAR_HEADER = /^[A-Z][A-Z0-9]{3} \d{6}Z(?: |$)/;

/**
 * Decodes a METAR or SPECI. `now` dates the day-time group (the month and year are not in the
 * report). Throws MetarFormatError for what cannot be shown whole: no station, no time, NIL, or a
 * report the parser refuses. `parser`: read it with metar-taf-parser even where the fast path could
 * (the tests compare the two).
 */
export function decodeMetar(raw: string, now: number, options: { parser?: boolean } = {}): DecodedMetar {
  const text = sanitizeReport(raw);
  // The parser takes any number for the day-time group ("KJFK 1 2 1" is day 1, 00:00): the group must be there as written.
  if (!METAR_HEADER.test(text)) throw new MetarFormatError(raw, 'no station and day-time group');
  let m: Body | null = options.parser ? null : fastBody(text);
  if (m === null) {
    try {
      m = parseMetar(text);
    } catch (error) {
      throw new MetarFormatError(raw, `unreadable METAR (${(error as Error).name})`);
    }
  }
  requireHeader(raw, m.station, m.day, m.hour, m.minute);
  if (m.nil) throw new MetarFormatError(raw, 'NIL report');
  if (!m.wind && !m.visibility && !m.cavok && m.clouds.length === 0 && m.verticalVisibility === undefined && m.temperature === undefined && m.altimeter === undefined) {
    throw new MetarFormatError(raw, 'no observation in the report');
  }
  const remarkAt = text.indexOf(' RMK ');
  return {
    station: m.station,
    time: timeOfDayGroup(m.day!, m.hour!, m.minute!, now),
    text,
    auto: m.auto === true,
    ...conditions(m, remarkAt >= 0 ? text.slice(0, remarkAt) : text),
    temperatureC: m.temperature ?? null,
    dewPointC: m.dewPoint ?? null,
    qnhHpa: m.altimeter ? (m.altimeter.unit === 'inHg' ? m.altimeter.value * INHG_TO_HPA : m.altimeter.value) : null,
    remarks: remarkAt >= 0 ? text.slice(remarkAt + 1) : null,
  };
}

/** Decodes a TAF, its periods dated from its issue time; throws MetarFormatError as decodeMetar does. */
export function decodeTaf(raw: string, now: number): DecodedTaf {
  const text = sanitizeReport(raw);
  const header = /^([A-Z][A-Z0-9]{3}) (?:AMD |COR )?(\d{2})(\d{2})(\d{2})Z /.exec(text.replace(/^(?:AMD|COR) /, ''));
  if (!header) throw new MetarFormatError(raw, 'no station and issue time');
  const [, station, day, hour, minute] = header;
  requireHeader(raw, station, Number(day), Number(hour), Number(minute));
  const issued = timeOfDayGroup(Number(day), Number(hour), Number(minute), now);
  let forecast: ReturnType<typeof parseTAFAsForecast>;
  try {
    forecast = parseTAFAsForecast(`TAF ${text}`, { issued: new Date(issued) });
  } catch (error) {
    throw new MetarFormatError(raw, `unreadable TAF (${(error as Error).name})`);
  }
  if (forecast.forecast.length === 0) throw new MetarFormatError(raw, 'TAF without a forecast');
  return {
    station: forecast.station,
    issued,
    validFrom: forecast.start.getTime(),
    validTo: forecast.end.getTime(),
    text,
    periods: forecast.forecast.map((f) => ({
      ...conditions(f, f.raw),
      change: f.type ?? null,
      probability: f.probability ?? null,
      from: f.start.getTime(),
      to: f.end.getTime(),
      text: f.raw.replace(/^TAF /, ''),
    })),
  };
}
