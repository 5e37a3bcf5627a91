/**
 * IBTrACS v04 CSV (NOAA NCEI, https://www.ncei.noaa.gov/products/international-best-track-archive;
 * files `ibtracs.ACTIVE.list.v04r01.csv`, `ibtracs.last3years.list.v04r01.csv` under
 * .../ibtracs/v04r01/access/csv/). No IBTrACS file is among the fixtures: this reader follows the
 * column documentation (IBTrACS v04 column documentation, "IBTrACS_v04_column_documentation.pdf"),
 * and its tests say so. The first line names the columns, the second gives their units; values
 * are blank (a space) when missing. Columns read: SID, SEASON, BASIN, NAME, ISO_TIME
 * (`2018-10-10 18:00:00`, UTC), LAT, LON (degrees, east positive), USA_ATCF_ID (`AL142018`),
 * USA_WIND (kt, 1-minute sustained, the US agencies'), USA_PRES (mb), USA_SSHS, USA_STATUS
 * (ATCF storm type), WMO_WIND (kt; 10-minute for most agencies, used only where USA_WIND is
 * blank) and WMO_PRES.
 */

export class IbtracsFormatError extends Error {
  constructor(
    readonly kind: 'truncated' | 'garbled' | 'empty',
    readonly line: number,
    message: string,
  ) {
    super(`IBTrACS ${kind}, line ${line}: ${message}`);
    this.name = 'IbtracsFormatError';
  }
}

export interface IbtracsRow {
  sid: string;
  season: number;
  /** ATCF id in lower case (`al142018`); '' for storms no US agency tracked. */
  atcfId: string;
  name: string;
  time: number;
  lat: number;
  lon: number;
  windKt: number | null;
  pressureHpa: number | null;
  /** USA_STATUS (ATCF storm type: TS, HU, TY, ST, EX ...). */
  type: string;
}

const REQUIRED = ['SID', 'SEASON', 'NAME', 'ISO_TIME', 'LAT', 'LON', 'USA_ATCF_ID', 'USA_WIND', 'USA_PRES', 'USA_STATUS', 'WMO_WIND', 'WMO_PRES'] as const;

function blankOrNumber(text: string | undefined, line: number, column: string): number | null {
  const v = (text ?? '').trim();
  if (v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new IbtracsFormatError('garbled', line, `${column} "${v}" is not a number`);
  return n;
}

/**
 * The rows of an IBTrACS CSV (no quoted fields: IBTrACS writes none). A missing column, a row
 * with another number of fields than the header (a cut line), or a value that is not of its
 * column's kind refuses the file.
 */
export function parseIbtracs(text: string): IbtracsRow[] {
  const lines = text.replace(/\r/g, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length < 2) throw new IbtracsFormatError(lines.length ? 'truncated' : 'empty', lines.length, 'no header and units lines');
  if (!text.endsWith('\n')) throw new IbtracsFormatError('truncated', lines.length, 'the file ends inside a line');
  const header = lines[0].split(',').map((s) => s.trim());
  const col: Record<string, number> = {};
  for (const name of REQUIRED) {
    const i = header.indexOf(name);
    if (i < 0) throw new IbtracsFormatError('garbled', 1, `no ${name} column`);
    col[name] = i;
  }
  const rows: IbtracsRow[] = [];
  for (let i = 2; i < lines.length; i++) {
    const n = i + 1;
    if (!lines[i].trim()) continue;
    const f = lines[i].split(',');
    if (f.length !== header.length) throw new IbtracsFormatError('truncated', n, `${f.length} fields, the header has ${header.length}`);
    const get = (c: (typeof REQUIRED)[number]) => f[col[c]].trim();
    const time = Date.parse(`${get('ISO_TIME').replace(' ', 'T')}Z`);
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(get('ISO_TIME')) || !Number.isFinite(time)) throw new IbtracsFormatError('garbled', n, `ISO_TIME "${get('ISO_TIME')}" is not a time`);
    const lat = blankOrNumber(get('LAT'), n, 'LAT');
    const lon = blankOrNumber(get('LON'), n, 'LON');
    if (lat === null || lon === null || Math.abs(lat) > 90 || lon < -180 || lon > 360) throw new IbtracsFormatError('garbled', n, `position "${get('LAT')}, ${get('LON')}" is not on the Earth`);
    const season = blankOrNumber(get('SEASON'), n, 'SEASON');
    if (season === null) throw new IbtracsFormatError('garbled', n, 'no SEASON');
    const atcfId = get('USA_ATCF_ID').toLowerCase();
    if (atcfId && !/^(al|ep|cp|wp|io|sh)\d{6}$/.test(atcfId)) throw new IbtracsFormatError('garbled', n, `USA_ATCF_ID "${atcfId}" is not an ATCF id`);
    // Every number column is checked, also those a present US value makes unused.
    const usaWind = blankOrNumber(get('USA_WIND'), n, 'USA_WIND');
    const wmoWind = blankOrNumber(get('WMO_WIND'), n, 'WMO_WIND');
    const usaPres = blankOrNumber(get('USA_PRES'), n, 'USA_PRES');
    const wmoPres = blankOrNumber(get('WMO_PRES'), n, 'WMO_PRES');
    rows.push({
      sid: get('SID'),
      season,
      atcfId,
      name: get('NAME'),
      time,
      lat,
      lon: lon > 180 ? lon - 360 : lon,
      windKt: usaWind ?? wmoWind,
      pressureHpa: usaPres ?? wmoPres,
      type: get('USA_STATUS').slice(0, 2),
    });
  }
  return rows;
}
