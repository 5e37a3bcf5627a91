/**
 * NASA FIRMS active fire detections, CSV of the area API
 * (https://firms.modaps.eosdis.nasa.gov/api/area/ : `/api/area/csv/{MAP_KEY}/{source}/{area}/{days}`,
 * sources VIIRS_SNPP_NRT, VIIRS_NOAA20_NRT, VIIRS_NOAA21_NRT, MODIS_NRT ...). Columns as FIRMS
 * documents them ("Attributes of VIIRS 375 m and MODIS Collection 6.1 active fire products"):
 * VIIRS  latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_ti5,frp,daynight
 * MODIS  latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_t31,frp,daynight
 * acq_date YYYY-MM-DD and acq_time HHMM are UTC (the overpass); VIIRS confidence is a class
 * l/n/h (low, nominal, high), MODIS a percentage 0-100; frp is in MW.
 * The area API answers a bad or exhausted key with a line of text instead of CSV
 * ("Invalid MAP_KEY.", "Exceeding allowed transaction limit."): refused by name.
 */

import type { FireConfidence, FireSpot } from '../../../common/obs/fires.ts';

export class FiresFormatError extends Error {
  override name = 'FiresFormatError';
}

const REQUIRED = ['latitude', 'longitude', 'acq_date', 'acq_time', 'confidence', 'frp'] as const;

function confidence(raw: string, line: number): FireConfidence {
  const v = raw.trim().toLowerCase();
  if (v === 'l' || v === 'low') return { kind: 'class', value: 'low' };
  if (v === 'n' || v === 'nominal') return { kind: 'class', value: 'nominal' };
  if (v === 'h' || v === 'high') return { kind: 'class', value: 'high' };
  const percent = Number(v);
  if (v !== '' && Number.isFinite(percent) && percent >= 0 && percent <= 100) return { kind: 'percent', value: percent };
  throw new FiresFormatError(`FIRMS CSV line ${line}: confidence ${JSON.stringify(raw)} is neither l/n/h nor 0-100`);
}

/** "2024-07-14" + "0412" (or "412") UTC -> ms since the epoch. */
export function firmsTime(date: string, time: string): number {
  const d = /^(\d{4})-(\d\d)-(\d\d)$/.exec(date.trim());
  const t = /^\d{1,4}$/.exec(time.trim()) ? time.trim().padStart(4, '0') : null;
  if (!d || !t) return NaN;
  const hh = Number(t.slice(0, 2));
  const mm = Number(t.slice(2));
  if (hh > 23 || mm > 59) return NaN;
  return Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), hh, mm);
}

/** One FIRMS area-API CSV answer -> fire spots. Throws FiresFormatError naming the line at fault. */
export function parseFirmsCsv(text: string): FireSpot[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.split(',').map((h) => h.trim().toLowerCase()) ?? [];
  const missing = REQUIRED.filter((name) => !header.includes(name));
  if (missing.length > 0) {
    const first = (lines[0] ?? '').trim().slice(0, 120);
    throw new FiresFormatError(missing.length === REQUIRED.length ? `FIRMS answered no CSV: ${JSON.stringify(first)}` : `FIRMS CSV header lacks ${missing.join(', ')}`);
  }
  const col = (name: string) => header.indexOf(name);
  const [iLat, iLon, iDate, iTime, iConf, iFrp] = REQUIRED.map(col);
  const iSat = col('satellite');
  const iInstrument = col('instrument');
  const spots: FireSpot[] = [];
  for (let n = 1; n < lines.length; n++) {
    if (lines[n].trim() === '') continue;
    const cells = lines[n].split(',');
    if (cells.length !== header.length) throw new FiresFormatError(`FIRMS CSV line ${n + 1}: ${cells.length} cells, header has ${header.length} (truncated?)`);
    const lat = Number(cells[iLat]);
    const lon = Number(cells[iLon]);
    if (cells[iLat].trim() === '' || cells[iLon].trim() === '' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) throw new FiresFormatError(`FIRMS CSV line ${n + 1}: no valid position (${cells[iLat]}, ${cells[iLon]})`);
    const time = firmsTime(cells[iDate], cells[iTime]);
    if (!Number.isFinite(time)) throw new FiresFormatError(`FIRMS CSV line ${n + 1}: no valid time (${cells[iDate]} ${cells[iTime]})`);
    const frp = cells[iFrp].trim() === '' ? null : Number(cells[iFrp]);
    if (frp !== null && !Number.isFinite(frp)) throw new FiresFormatError(`FIRMS CSV line ${n + 1}: frp ${JSON.stringify(cells[iFrp])} is not a number`);
    const sensor = [iSat >= 0 ? cells[iSat].trim() : '', iInstrument >= 0 ? cells[iInstrument].trim() : ''].filter(Boolean).join(' ');
    spots.push({ lat, lon, time, sensor, confidence: confidence(cells[iConf], n + 1), frpMw: frp });
  }
  return spots;
}
