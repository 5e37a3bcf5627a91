/**
 * NOAA Hazard Mapping System (HMS) fire points, the daily text product on
 * https://satepsanone.nesdis.noaa.gov/pub/FIRE/web/HMS/Fire_Points/Text/{YYYY}/{MM}/hms_fire{YYYYMMDD}.txt
 * (NOAA OSPO, "HMS Fire and Smoke product": comma-separated, a header line, then one detection a
 * line): `Lon, Lat, YearDay, Time, Satellite, Method of Detect, Ecosystem, Frp` with YearDay as
 * YYYYDDD (day of year), Time HHMM UTC and Frp in MW (-999 when the algorithm gives none). Columns
 * are found by name so the older variants (no Frp column, "Ecosys") read too. HMS carries no
 * confidence; its analysts' quality control is the product itself.
 */

import type { FireSpot } from '../../../common/obs/fires.ts';
import { FiresFormatError } from './firms.ts';

/** 2023150 (YYYYDDD) + "1830" UTC -> ms since the epoch. */
export function hmsTime(yearDay: string, time: string): number {
  const yd = /^(\d{4})(\d{3})$/.exec(yearDay.trim());
  const t = /^\d{1,4}$/.exec(time.trim()) ? time.trim().padStart(4, '0') : null;
  if (!yd || !t) return NaN;
  const day = Number(yd[2]);
  const hh = Number(t.slice(0, 2));
  const mm = Number(t.slice(2));
  if (day < 1 || day > 366 || hh > 23 || mm > 59) return NaN;
  return Date.UTC(Number(yd[1]), 0, day, hh, mm);
}

export function parseHmsText(text: string): FireSpot[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim().toLowerCase());
  const col = (pattern: RegExp) => header.findIndex((h) => pattern.test(h));
  const iLon = col(/^lon/);
  const iLat = col(/^lat/);
  const iDay = col(/^yearday$/);
  const iTime = col(/^time$/);
  const iSat = col(/^satellite$/);
  const iFrp = col(/^(frp|fire radpower)$/);
  if (iLon < 0 || iLat < 0 || iDay < 0 || iTime < 0) throw new FiresFormatError(`HMS text: header ${JSON.stringify((lines[0] ?? '').trim().slice(0, 120))} lacks Lon, Lat, YearDay or Time`);
  const spots: FireSpot[] = [];
  for (let n = 1; n < lines.length; n++) {
    if (lines[n].trim() === '') continue;
    const cells = lines[n].split(',');
    if (cells.length < header.length) throw new FiresFormatError(`HMS text line ${n + 1}: ${cells.length} cells, header has ${header.length} (truncated?)`);
    const lon = Number(cells[iLon]);
    const lat = Number(cells[iLat]);
    if (cells[iLon].trim() === '' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) throw new FiresFormatError(`HMS text line ${n + 1}: no valid position (${cells[iLon]}, ${cells[iLat]})`);
    const time = hmsTime(cells[iDay], cells[iTime]);
    if (!Number.isFinite(time)) throw new FiresFormatError(`HMS text line ${n + 1}: no valid time (${cells[iDay]} ${cells[iTime]})`);
    const frp = iFrp >= 0 ? Number(cells[iFrp]) : NaN;
    spots.push({ lon, lat, time, sensor: iSat >= 0 ? cells[iSat].trim() : '', confidence: null, frpMw: Number.isFinite(frp) && frp >= 0 ? frp : null });
  }
  return spots;
}
