/**
 * BUFKIT model soundings (the NWS's .buf files, e.g. https://www.meteo.psu.edu/bufkit/data/RAP/rap_oun.buf):
 * a parameter line `SNPARM = PRES;TMPC;TMWC;DWPC;THTE;DRCT;SKNT;OMEG;CFRL;HGHT` and the station
 * indices `STNPRM = SHOW;LIFT;...`, then one block per forecast hour:
 *
 *   STID = OUN STNM = 723570 TIME = 181219/0400
 *   SLAT = 35.23 SLON = -97.47 SELV = 350
 *   STIM = 0
 *   SHOW = 11.69 LIFT = 10.38 ...          (the STNPRM values; -9999.00 missing)
 *   PRES TMPC ... HGHT                     (the SNPARM names, wrapped)
 *   971.60 7.14 5.99 ...                   (SNPARM values per level, wrapped over lines)
 *
 * and after the last block the surface series (STN YYMMDD/HHMM PMSL ...), which is not read here.
 * Soundings are model forecasts: `time` is the valid time, `refTime` the run (TIME - STIM hours).
 */

import type { Sounding, SoundingLevel } from '../../../common/sounding/types.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { hasData, KNOT_MS, SoundingFormatError, stampTime, type ReadSounding } from './format.ts';

const MISSING = -9999;
const REQUIRED = ['PRES', 'TMPC', 'DWPC', 'HGHT'] as const;

const fail = (detail: string): never => {
  throw new SoundingFormatError('BUFKIT', detail);
};

/** `NAME = value` pairs of a run of lines. */
function pairs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/([A-Z0-9]+)\s*=\s*(\S+)/g)) out.set(m[1], m[2]);
  return out;
}

/** Every forecast hour's sounding of a BUFKIT file, in file order; `name` (the model, e.g. RAP) labels them. */
export function parseBufkit(text: string, name?: string): ReadSounding[] {
  const snparm = /^\s*SNPARM\s*=\s*(\S+)/m.exec(text)?.[1].split(';');
  if (!snparm) fail('no SNPARM line: not a BUFKIT file');
  const columns = snparm as string[];
  const missingColumns = REQUIRED.filter((c) => !columns.includes(c));
  if (missingColumns.length > 0) fail(`SNPARM lacks ${missingColumns.join(', ')}`);
  const stnprm = /^\s*STNPRM\s*=\s*(\S+)/m.exec(text)?.[1].split(';') ?? [];
  const col = (name: string): number => columns.indexOf(name);
  // The sounding section ends where the surface series' header (a line starting with STN) begins.
  const surface = text.search(/^STN\s+YYMMDD\/HHMM/m);
  const body = surface >= 0 ? text.slice(0, surface) : text;
  const starts = [...body.matchAll(/^\s*STID\s*=/gm)].map((m) => m.index ?? 0);
  if (starts.length === 0) fail('no STID block');
  return starts.map((start, k) => {
    const block = body.slice(start, starts[k + 1] ?? body.length);
    const lines = block.split(/\r?\n/);
    // The data begin after the line of column names that ends with the last SNPARM name.
    const namesEnd = lines.findIndex((l) => l.trim().split(/\s+/).at(-1) === columns.at(-1) && /^[A-Z\s]+$/.test(l.trim()));
    if (namesEnd < 0) fail(`block ${k + 1}: no column names line`);
    const head = pairs(lines.slice(0, namesEnd).filter((l) => !/^[A-Z\s]+$/.test(l.trim())).join('\n'));
    const stid = head.get('STID');
    const time = stampTime(head.get('TIME') ?? '');
    const lat = Number(head.get('SLAT'));
    const lon = Number(head.get('SLON'));
    const elevation = Number(head.get('SELV'));
    const stim = Number(head.get('STIM') ?? 0);
    if (!stid || !Number.isFinite(time)) fail(`block ${k + 1}: no STID or TIME (YYMMDD/HHMM)`);
    if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) fail(`block ${k + 1}: no valid SLAT/SLON`);
    const where = `${stid} ${head.get('TIME')}`;
    const tokens = lines.slice(namesEnd + 1).join(' ').trim().split(/\s+/).filter((t) => t !== '');
    const values = tokens.map(Number);
    const bad = tokens.findIndex((t, i) => !Number.isFinite(values[i]));
    if (bad >= 0) fail(`${where}: ${JSON.stringify(tokens[bad].slice(0, 40))} is not a number`);
    if (values.length === 0 || values.length % columns.length !== 0) {
      fail(`${where}: ${values.length} values are not whole levels of ${columns.length} (truncated?)`);
    }
    const levels: SoundingLevel[] = [];
    for (let i = 0; i < values.length; i += columns.length) {
      const get = (name: string): number | null => {
        const c = col(name);
        const v = c < 0 ? MISSING : values[i + c];
        return v === MISSING ? null : v;
      };
      const pressure = get('PRES');
      if (pressure === null || pressure <= 0) fail(`${where}: level ${i / columns.length + 1} has no pressure`);
      const knots = get('SKNT');
      const level: SoundingLevel = { pressure: pressure as number, height: get('HGHT'), temp: get('TMPC'), dewpoint: get('DWPC'), windDir: get('DRCT'), windSpeed: knots === null ? null : knots * KNOT_MS };
      if (hasData(level)) levels.push(level);
    }
    const published: Record<string, number> = {};
    for (const name of stnprm) {
      const v = Number(head.get(name));
      if (head.has(name) && Number.isFinite(v) && v !== MISSING) published[name] = v;
    }
    const sounding: Sounding = {
      source: 'model', id: stid as string, ...(name ? { name } : {}), lat, lon, elevation: Number.isFinite(elevation) ? elevation : null,
      time, refTime: time - (Number.isFinite(stim) ? stim : 0) * HOUR_MS, levels,
    };
    return { sounding, published };
  });
}
