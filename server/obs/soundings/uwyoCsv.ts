/**
 * University of Wyoming soundings as its current service writes them: the "Comma Separated Values"
 * answer (TEXT:CSV) of
 *
 *   https://weather.uwyo.edu/wsgi/sounding?datetime=2018-12-22%2012%3A00%3A00&id=72357&type=TEXT:CSV
 *
 * A header line of named columns, units after the last underscore,
 *
 *   time,longitude,latitude,pressure_hPa,geopotential height_m,temperature_C,dew point temperature_C,
 *   ice point temperature_C,relative humidity_%,humidity wrt ice_%,mixing ratio_g/kg,
 *   wind direction_degree,wind speed_m/s
 *
 * then one row per level from the launch up: the time the balloon was there and where it had
 * drifted to, a blank cell where a value is missing. Wind speeds are m/s (the legacy TEXT:LIST pages
 * wrote knots). The answer names neither the station nor the launch it was asked for: the caller
 * gives both. The columns are found by name, so their order may change; one that the `Sounding`
 * needs and is not there, a cell that is not a number, or a row with fewer cells than the header
 * (a cut answer) is a SoundingFormatError.
 *
 * Built from the service's URL layout and column list as published by the programs that read it
 * (no capture of this answer is in ../shared/data yet); tested on the real TEXT:LIST fixture's
 * levels written in this layout (uwyoCsv.test.ts).
 *
 * A high-resolution (BUFR) flight has a row a second, some 5 000 rows up to the burst; above
 * THIN_ABOVE_LEVELS rows, a level is kept only LAYER_HPA or more above the last kept one (and the
 * top), which leaves a few hundred levels: more than a TEMP report's mandatory and significant
 * levels, which pass untouched.
 */

import type { Sounding, SoundingLevel } from '../../../common/sounding/types.ts';
import { hasData, SoundingFormatError, type ReadSounding } from './format.ts';

/** The columns a Sounding is made of, by the service's header names. */
const COLUMNS = {
  lon: 'longitude',
  lat: 'latitude',
  pressure: 'pressure_hPa',
  height: 'geopotential height_m',
  temp: 'temperature_C',
  dewpoint: 'dew point temperature_C',
  windDir: 'wind direction_degree',
  windSpeed: 'wind speed_m/s',
} as const;

/** Every column of the service's header, in its order (what the tests write). */
export const UWYO_CSV_HEADER = [
  'time', 'longitude', 'latitude', 'pressure_hPa', 'geopotential height_m', 'temperature_C', 'dew point temperature_C',
  'ice point temperature_C', 'relative humidity_%', 'humidity wrt ice_%', 'mixing ratio_g/kg', 'wind direction_degree', 'wind speed_m/s',
] as const;

/** Profiles longer than this are thinned (a TEMP report has about a hundred levels). */
export const THIN_ABOVE_LEVELS = 400;
/** hPa between the levels kept of a thinned profile: ~17 m near the ground, ~200 m at 100 hPa. */
export const LAYER_HPA = 2;

const fail = (detail: string): never => {
  throw new SoundingFormatError('UWyo TEXT:CSV', detail);
};

export interface UwyoCsvRequest {
  /** The station asked for (WMO number). */
  station: string;
  /** The launch asked for, ms (the nominal synoptic time). */
  time: number;
  name?: string;
}

/** Keeps the first level, each level LAYER_HPA above the last kept, and the top. */
export function thinLevels(levels: readonly SoundingLevel[]): SoundingLevel[] {
  if (levels.length <= THIN_ABOVE_LEVELS) return [...levels];
  const kept = [levels[0]];
  for (let i = 1; i < levels.length - 1; i++) {
    if (kept[kept.length - 1].pressure - levels[i].pressure >= LAYER_HPA) kept.push(levels[i]);
  }
  kept.push(levels[levels.length - 1]);
  return kept;
}

/** The sounding of one TEXT:CSV answer; throws SoundingFormatError when it is cut or malformed. */
export function parseUwyoCsv(text: string, request: UwyoCsvRequest): ReadSounding {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) fail('empty answer');
  const header = lines[0].split(',').map((h) => h.trim());
  const at = (name: string): number => {
    const i = header.indexOf(name);
    return i >= 0 ? i : fail(`no column ${JSON.stringify(name)} in the header ${JSON.stringify(lines[0].slice(0, 200))}`);
  };
  const column = Object.fromEntries(Object.entries(COLUMNS).map(([key, name]) => [key, at(name)])) as Record<keyof typeof COLUMNS, number>;
  const levels: SoundingLevel[] = [];
  let launch: { lat: number; lon: number; height: number | null } | null = null;
  for (let n = 1; n < lines.length; n++) {
    const cells = lines[n].split(',');
    const where = `row ${n + 1} ${JSON.stringify(lines[n].slice(0, 100))}`;
    if (cells.length < header.length) fail(`${where} has ${cells.length} of ${header.length} cells: the answer is cut`);
    const cell = (key: keyof typeof COLUMNS): number | null => {
      const raw = cells[column[key]].trim();
      if (raw === '') return null;
      const v = Number(raw);
      return Number.isFinite(v) ? v : fail(`${where}: ${COLUMNS[key]} ${JSON.stringify(raw)} is not a number`);
    };
    const pressure = cell('pressure');
    if (pressure === null || pressure <= 0) fail(`${where} has no pressure`);
    const level: SoundingLevel = {
      pressure: pressure as number, height: cell('height'), temp: cell('temp'), dewpoint: cell('dewpoint'), windDir: cell('windDir'), windSpeed: cell('windSpeed'),
    };
    if (launch === null) {
      const lat = cell('lat');
      const lon = cell('lon');
      if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) fail(`${where}: the launch position ${lat}, ${lon} is not on the Earth`);
      launch = { lat: lat as number, lon: lon as number, height: level.height };
    }
    // Levels go up: a row at the pressure of the last one or below it (the balloon sinking for a
    // while, a repeated level) is left out.
    const last = levels[levels.length - 1];
    if (last && level.pressure >= last.pressure) continue;
    if (hasData(level)) levels.push(level);
  }
  if (launch === null || levels.length === 0) fail('no levels');
  const { lat, lon, height } = launch as { lat: number; lon: number; height: number | null };
  const sounding: Sounding = {
    source: 'radiosonde', id: request.station, ...(request.name ? { name: request.name } : {}),
    lat, lon, elevation: height, time: request.time, levels: thinLevels(levels),
  };
  // The answer prints no indices (TEXT:LIST pages do).
  return { sounding, published: {} };
}
