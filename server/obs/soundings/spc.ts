/**
 * SPC tabular soundings (the Storm Prediction Center's and SHARPpy's text format):
 *
 *   %TITLE%
 *    OAX   140616/1900
 *      LEVEL  HGHT  TEMP  DWPT  WDIR  WSPD
 *   -------------------------------------
 *   %RAW%
 *    965.00,  350.00, 27.80, 23.80, 150.00, 23.00
 *   ...
 *   %END%
 *
 * hPa, m MSL, °C, °C, degrees, knots; -9999 is missing. The file names no position: the caller
 * gives the station's. Levels below the ground (no temperature, dew point nor wind) are dropped.
 */

import type { Sounding, SoundingLevel } from '../../../common/sounding/types.ts';
import { hasData, KNOT_MS, SoundingFormatError, stampTime, type ReadSounding } from './format.ts';

const MISSING = -9999;
const COLUMNS = ['LEVEL', 'HGHT', 'TEMP', 'DWPT', 'WDIR', 'WSPD'] as const;

export interface StationPlace {
  lat: number;
  lon: number;
  name?: string;
}

export function parseSpcTabular(text: string, place: StationPlace): ReadSounding {
  const fail = (detail: string): never => { throw new SoundingFormatError('SPC tabular', detail); };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const title = lines.findIndex((l) => l.trim() === '%TITLE%');
  const raw = lines.findIndex((l) => l.trim() === '%RAW%');
  const end = lines.findIndex((l) => l.trim() === '%END%');
  if (title < 0 || raw < 0) fail('no %TITLE% and %RAW% sections');
  if (end < 0) fail('no %END%: truncated');
  const head = /^\s*(\S+)\s+(\d{6}\/\d{4})/.exec(lines[title + 1] ?? '');
  if (!head) fail(`title line ${JSON.stringify((lines[title + 1] ?? '').trim())} is not "STATION YYMMDD/HHMM"`);
  const [, id, stamp] = head as RegExpExecArray;
  const time = stampTime(stamp);
  if (!Number.isFinite(time)) fail(`time ${stamp} is not YYMMDD/HHMM`);
  const header = lines.slice(title + 2, raw).find((l) => /LEVEL/.test(l))?.trim().split(/\s+/) ?? [];
  if (COLUMNS.some((c, i) => header[i] !== c)) fail(`columns ${header.join(' ')} are not ${COLUMNS.join(' ')}`);
  const levels: SoundingLevel[] = [];
  for (let n = raw + 1; n < end; n++) {
    if (lines[n].trim() === '') continue;
    const cells = lines[n].split(',').map((c) => c.trim());
    const values = cells.map(Number);
    if (cells.length !== COLUMNS.length || cells.some((c) => c === '') || values.some((v) => !Number.isFinite(v))) {
      fail(`line ${n + 1} ${JSON.stringify(lines[n].trim().slice(0, 80))} is not ${COLUMNS.length} numbers`);
    }
    const value = (i: number): number | null => (values[i] === MISSING ? null : values[i]);
    const pressure = value(0);
    if (pressure === null || pressure <= 0) fail(`line ${n + 1}: no pressure`);
    const speed = value(5);
    const level: SoundingLevel = { pressure: pressure as number, height: value(1), temp: value(2), dewpoint: value(3), windDir: value(4), windSpeed: speed === null ? null : speed * KNOT_MS };
    if (hasData(level)) levels.push(level);
  }
  if (levels.length === 0) fail('no levels');
  const sounding: Sounding = {
    source: 'radiosonde', id, lat: place.lat, lon: place.lon, elevation: levels[0].height, time, levels,
    ...(place.name !== undefined ? { name: place.name } : {}),
  };
  return { sounding, published: {} };
}
