/**
 * University of Wyoming soundings, the TEXT:LIST page of
 * https://weather.uwyo.edu/cgi-bin/sounding?region=naconf&TYPE=TEXT%3ALIST&YEAR=2018&MONTH=12&FROM=2212&TO=2212&STNM=72357
 * One block per sounding: an <H2> title ("72357 OUN Norman Observations at 12Z 22 Dec 2018"), a
 * <PRE> table of fixed 7-character columns
 *
 *      PRES   HGHT   TEMP   DWPT   RELH   MIXR   DRCT   SKNT   THTA   THTE   THTV
 *       hPa     m      C      C      %    g/kg    deg   knot     K      K      K
 *
 * (blank where missing), and a <PRE> of "Station information and sounding indices", `label: value`
 * lines (station number, observation time YYMMDD/HHMM, latitude, longitude, elevation, then the
 * indices). A page may hold several soundings; one that asks for a time with none says "Can't get".
 */

import type { Sounding, SoundingLevel } from '../../../common/sounding/types.ts';
import { hasData, KNOT_MS, SoundingFormatError, stampTime, type ReadSounding } from './format.ts';

const COLUMN_WIDTH = 7;
const COLUMNS = ['PRES', 'HGHT', 'TEMP', 'DWPT', 'RELH', 'MIXR', 'DRCT', 'SKNT', 'THTA', 'THTE', 'THTV'] as const;

const fail = (detail: string): never => {
  throw new SoundingFormatError('UWyo TEXT:LIST', detail);
};

function readTable(pre: string, title: string): SoundingLevel[] {
  const lines = pre.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => /^\s*PRES\s+HGHT\s+TEMP/.test(l));
  if (headerAt < 0) fail(`${title}: no PRES HGHT TEMP ... header`);
  const header = lines[headerAt].trim().split(/\s+/);
  if (COLUMNS.some((c, i) => header[i] !== c)) fail(`${title}: columns ${header.join(' ')} are not ${COLUMNS.join(' ')}`);
  const levels: SoundingLevel[] = [];
  for (let n = headerAt + 3; n < lines.length; n++) {
    const line = lines[n];
    if (line.trim() === '' || /^-+$/.test(line.trim())) continue;
    const cell = (i: number): number | null => {
      const text = line.slice(i * COLUMN_WIDTH, (i + 1) * COLUMN_WIDTH).trim();
      if (text === '') return null;
      const v = Number(text);
      return Number.isFinite(v) ? v : fail(`${title}: line ${JSON.stringify(line.trim().slice(0, 80))}: ${COLUMNS[i]} ${JSON.stringify(text)} is not a number`);
    };
    const pressure = cell(0);
    if (pressure === null || pressure <= 0) fail(`${title}: line ${JSON.stringify(line.trim().slice(0, 80))} has no pressure`);
    const knots = cell(7);
    const level: SoundingLevel = { pressure: pressure as number, height: cell(1), temp: cell(2), dewpoint: cell(3), windDir: cell(6), windSpeed: knots === null ? null : knots * KNOT_MS };
    if (hasData(level)) levels.push(level);
  }
  return levels;
}

/** `label: value` lines of the station block, by label. */
function readStationBlock(pre: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of pre.split(/\r?\n/)) {
    const m = /^\s*(.+?):\s*(\S+)\s*$/.exec(line);
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

/** Labels of the station block that describe the station, not an index. */
const STATION_LABELS = new Set(['Station identifier', 'Station number', 'Observation time', 'Station latitude', 'Station longitude', 'Station elevation']);

/** Every sounding of a TEXT:LIST page, in page order; throws SoundingFormatError when one is cut or malformed. */
export function parseUwyoTextList(html: string): ReadSounding[] {
  const blocks = [...html.matchAll(/<H2>([^<]*)<\/H2>\s*<PRE>([\s\S]*?)(?:<\/PRE>|$)/gi)];
  if (blocks.length === 0) fail(/Can't get/i.test(html) ? 'the page has no sounding ("Can\'t get")' : 'no <H2> title and <PRE> table: not a TEXT:LIST page');
  return blocks.map((block) => {
    const title = block[1].trim();
    const tableEnd = (block.index ?? 0) + block[0].length;
    if (!/<\/PRE>$/i.test(block[0])) fail(`${title}: the table has no </PRE>: truncated`);
    const levels = readTable(block[2], title);
    const info = /^\s*<H3>Station information and sounding indices<\/H3>\s*<PRE>([\s\S]*?)<\/PRE>/i.exec(html.slice(tableEnd));
    if (!info) fail(`${title}: no station information block after the table: truncated`);
    const fields = readStationBlock((info as RegExpExecArray)[1]);
    const number = (label: string): number => {
      const v = Number(fields.get(label));
      return fields.has(label) && Number.isFinite(v) ? v : fail(`${title}: station block has no ${label}`);
    };
    const time = stampTime(fields.get('Observation time') ?? '');
    if (!Number.isFinite(time)) fail(`${title}: observation time ${JSON.stringify(fields.get('Observation time'))} is not YYMMDD/HHMM`);
    if (levels.length === 0) fail(`${title}: no levels`);
    const lat = number('Station latitude');
    const lon = number('Station longitude');
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) fail(`${title}: position ${lat}, ${lon} is not on the Earth`);
    const published: Record<string, number> = {};
    for (const [label, value] of fields) {
      const v = Number(value);
      if (!STATION_LABELS.has(label) && Number.isFinite(v)) published[label] = v;
    }
    const name = /^\d+\s+\S+\s+(.*?)\s+Observations at/.exec(title)?.[1];
    const sounding: Sounding = {
      source: 'radiosonde',
      id: String(number('Station number')),
      ...(name ? { name } : {}),
      lat, lon, elevation: number('Station elevation'), time, levels,
    };
    return { sounding, published };
  });
}
