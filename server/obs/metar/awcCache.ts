/**
 * The Aviation Weather Center's cache files (aviationweather.gov/data/cache/, documented at
 * aviationweather.gov/data/api/#cache): every current METAR of the world in metars.cache.csv.gz, every
 * current TAF in tafs.cache.xml.gz, refreshed each minute.
 *
 *   metars.cache.csv   five status lines ("No errors", "No warnings", "N ms", "data source=metars",
 *                      "N results"), then a header row naming the columns, one report a row; the
 *                      columns read here: raw_text, station_id, latitude, longitude
 *   tafs.cache.xml     <response><data num_results="N"><TAF><raw_text>..</raw_text><station_id>..
 *
 * Reading is by column and element name, so added columns do no harm; a missing column or element
 * is an AwcFormatError (the poll fails and the last publication stays).
 */

import { XMLParser } from 'fast-xml-parser';
import { csvRows } from './csv.ts';

export class AwcFormatError extends Error {
  override readonly name = 'AwcFormatError';
}

export interface AwcMetarRow {
  raw: string;
  station: string;
  lat: number;
  lon: number;
}

export interface AwcTafRow {
  raw: string;
  station: string;
}

const METAR_COLUMNS = ['raw_text', 'station_id', 'latitude', 'longitude'] as const;

export function parseMetarCacheCsv(text: string): AwcMetarRow[] {
  const out: AwcMetarRow[] = [];
  let columns: Map<string, number> | null = null;
  for (const row of csvRows(text)) {
    if (columns === null) {
      if (row[0] !== 'raw_text') continue; // the status lines before the header
      columns = new Map(row.map((name, i) => [name, i]));
      const missing = METAR_COLUMNS.filter((c) => !columns!.has(c));
      if (missing.length > 0) throw new AwcFormatError(`metars.cache.csv: no column ${missing.join(', ')}`);
      continue;
    }
    if (row.length === 1 && row[0] === '') continue;
    const get = (name: (typeof METAR_COLUMNS)[number]) => row[columns!.get(name)!] ?? '';
    out.push({ raw: get('raw_text').trim(), station: get('station_id').trim(), lat: Number(get('latitude')), lon: Number(get('longitude')) });
  }
  if (columns === null) throw new AwcFormatError('metars.cache.csv: no header row (raw_text,station_id,...)');
  return out;
}

const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'TAF' });

export function parseTafCacheXml(text: string): AwcTafRow[] {
  let doc: { response?: { data?: { TAF?: { raw_text?: unknown; station_id?: unknown }[] } | '' } };
  try {
    doc = xml.parse(text);
  } catch (error) {
    throw new AwcFormatError(`tafs.cache.xml: not XML (${(error as Error).message})`, { cause: error });
  }
  const data = doc.response?.data;
  if (data === undefined) throw new AwcFormatError('tafs.cache.xml: no <response><data> element');
  if (data === '') return [];
  return (data.TAF ?? []).map((t) => ({ raw: String(t.raw_text ?? '').trim(), station: String(t.station_id ?? '').trim() }));
}
