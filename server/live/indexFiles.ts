/**
 * The two kinds of index published beside model GRIB2 files, and byte-range planning from them.
 *
 * NOAA `.idx` (wgrib2 inventory): one line per field, `n:offset:d=YYYYMMDDHH:VAR:LEVEL:FORECAST:`,
 * e.g. `5:1021388:d=2024010200:UGRD:10 m above ground:3 hour fcst:`. A message with several fields
 * gives lines `5.1`, `5.2` at the same offset. The length of a message is the next larger offset
 * minus its own; the last one runs to the end of the file.
 *
 * ECMWF `.index`: one JSON object per line with MARS keys and the byte range, e.g.
 * `{"param": "2t", "levtype": "sfc", "step": "3", "_offset": 0, "_length": 609069}`
 * (pressure levels add `"levelist": "500"`).
 */

import type { ByteRange } from './http.ts';

export interface IndexEntry {
  offset: number;
  /** Null for the last message of a NOAA file (to the end of the file). */
  length: number | null;
}

export interface NoaaIndexEntry extends IndexEntry {
  /** `5` or `5.2`. */
  number: string;
  date: string;
  variable: string;
  level: string;
  forecast: string;
}

export interface EcmwfIndexEntry extends IndexEntry {
  length: number;
  param: string;
  levtype: string;
  levelist?: string;
  step: string;
  /** Every key of the line, for matching on others (`type`, `stream`, `number`...). */
  keys: Record<string, string>;
}

export class IndexFormatError extends Error {
  override name = 'IndexFormatError';
}

export function parseNoaaIndex(text: string): NoaaIndexEntry[] {
  const entries: NoaaIndexEntry[] = [];
  for (const [lineNo, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const parts = line.split(':');
    if (parts.length < 6 || !/^\d+(\.\d+)?$/.test(parts[0]) || !/^\d+$/.test(parts[1]) || !parts[2].startsWith('d=')) {
      throw new IndexFormatError(`Index line ${lineNo + 1} is not "n:offset:d=date:VAR:LEVEL:FORECAST:": ${line.slice(0, 120)}`);
    }
    entries.push({
      number: parts[0], offset: Number(parts[1]), length: null, date: parts[2].slice(2),
      variable: parts[3], level: parts[4], forecast: parts[5],
    });
  }
  const offsets = [...new Set(entries.map((e) => e.offset))].sort((a, b) => a - b);
  const nextOffset = new Map(offsets.map((offset, i) => [offset, offsets[i + 1]]));
  for (const entry of entries) {
    const next = nextOffset.get(entry.offset);
    entry.length = next === undefined ? null : next - entry.offset;
  }
  return entries;
}

export function parseEcmwfIndex(text: string): EcmwfIndexEntry[] {
  const entries: EcmwfIndexEntry[] = [];
  for (const [lineNo, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new IndexFormatError(`Index line ${lineNo + 1} is not JSON: ${line.slice(0, 120)}`);
    }
    const offset = record._offset;
    const length = record._length;
    if (typeof offset !== 'number' || typeof length !== 'number' || offset < 0 || length <= 0 || typeof record.param !== 'string') {
      throw new IndexFormatError(`Index line ${lineNo + 1} lacks param, _offset or _length: ${line.slice(0, 120)}`);
    }
    const keys: Record<string, string> = {};
    for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) keys[key] = String(value);
    entries.push({
      offset, length, param: keys.param, levtype: keys.levtype ?? '', levelist: keys.levelist, step: keys.step ?? '', keys,
    });
  }
  return entries;
}

/**
 * Byte ranges of the chosen index entries, sorted, duplicates (several fields of one message)
 * dropped, and exactly adjacent ranges merged into one request while it stays under `maxBytes`.
 * Nothing between two wanted messages is ever fetched.
 */
export function planRanges(entries: readonly IndexEntry[], maxBytes = 64 * 1024 * 1024): ByteRange[] {
  const byOffset = new Map<number, IndexEntry>();
  for (const entry of entries) byOffset.set(entry.offset, entry);
  const sorted = [...byOffset.values()].sort((a, b) => a.offset - b.offset);
  const ranges: ByteRange[] = [];
  for (const entry of sorted) {
    const end = entry.length === null ? null : entry.offset + entry.length - 1;
    const last = ranges[ranges.length - 1];
    if (last && last.end !== null && last.end + 1 === entry.offset
      && (end === null || end - last.start + 1 <= maxBytes)) {
      last.end = end;
    } else {
      ranges.push({ start: entry.offset, end });
    }
  }
  return ranges;
}
