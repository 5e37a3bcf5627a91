/**
 * OurAirports runways (ourairports.com/data/, public domain): runways.csv, one runway a row with
 * both ends ("le" the low end, "he" the high end), published at
 * https://davidmegginson.github.io/ourairports-data/runways.csv. The columns read here: airport_ident,
 * length_ft, width_ft, surface, lighted, closed, le_ident, le_heading_degT, he_ident, he_heading_degT.
 * The header is checked; a row whose numbers do not read is skipped and counted.
 */

import type { AirportRunway } from '../../../common/api/airports.ts';
import { csvRows } from './csv.ts';

export class RunwaysFormatError extends Error {
  override readonly name = 'RunwaysFormatError';
}

export const RUNWAY_COLUMNS = ['airport_ident', 'length_ft', 'width_ft', 'surface', 'lighted', 'closed', 'le_ident', 'le_heading_degT', 'he_ident', 'he_heading_degT'] as const;

const numberOrNull = (s: string) => (s.trim() === '' || !Number.isFinite(Number(s)) ? null : Number(s));

export interface RunwayTable {
  byAirport: Map<string, AirportRunway[]>;
  rows: number;
  skipped: number;
}

export function parseRunwaysCsv(text: string): RunwayTable {
  const byAirport = new Map<string, AirportRunway[]>();
  let columns: Map<string, number> | null = null;
  let rows = 0;
  let skipped = 0;
  for (const row of csvRows(text)) {
    if (columns === null) {
      columns = new Map(row.map((name, i) => [name.trim(), i]));
      const missing = RUNWAY_COLUMNS.filter((c) => !columns!.has(c));
      if (missing.length > 0) throw new RunwaysFormatError(`runways.csv: no column ${missing.join(', ')} in the header`);
      continue;
    }
    if (row.length === 1 && row[0] === '') continue;
    rows++;
    const get = (name: (typeof RUNWAY_COLUMNS)[number]) => row[columns!.get(name)!] ?? '';
    const airport = get('airport_ident').trim().toUpperCase();
    const lighted = get('lighted');
    const closed = get('closed');
    if (airport === '' || !/^[01]?$/.test(lighted) || !/^[01]?$/.test(closed)) {
      skipped++;
      continue;
    }
    const runway: AirportRunway = {
      lengthFt: numberOrNull(get('length_ft')),
      widthFt: numberOrNull(get('width_ft')),
      surface: get('surface').trim(),
      lighted: lighted === '1',
      closed: closed === '1',
      ends: [
        { ident: get('le_ident').trim(), headingDegT: numberOrNull(get('le_heading_degT')) },
        { ident: get('he_ident').trim(), headingDegT: numberOrNull(get('he_heading_degT')) },
      ].filter((e) => e.ident !== ''),
    };
    const list = byAirport.get(airport);
    if (list) list.push(runway);
    else byAirport.set(airport, [runway]);
  }
  if (columns === null) throw new RunwaysFormatError('runways.csv: empty');
  return { byAirport, rows, skipped };
}
