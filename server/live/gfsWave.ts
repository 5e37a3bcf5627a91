/**
 * NOAA GFS-Wave (WAVEWATCH III, public domain), published beside GFS:
 *   {base}/gfs.YYYYMMDD/HH/wave/gridded/gfswave.tHHz.global.0p25.fFFF.grib2(.idx)
 * on NOMADS and on the AWS mirror. Same runs and delay as GFS; hourly to 120 h, 3-hourly to 384 h.
 *
 * Intervals and forecast length come from the catalogue's `gfsWave` product (the GFS product's
 * while the catalogue lacks it); the ingest is handed product `gfsWave`.
 */

import { PRODUCTS } from '../../common/catalogue/index.ts';
import { DEFAULT_GFS_URL, GFS_SCHEDULE, NOMADS_REQUEST_INTERVAL_MS, noaaField, type GfsOptions } from './gfs.ts';
import { IndexedSource, type FieldSpec } from './indexedSource.ts';
import { parseNoaaIndex, type NoaaIndexEntry } from './indexFiles.ts';
import { hour3, NO_PRODUCT, runParts, stepRange } from './source.ts';

export function gfsWaveDataUrl(base: string, refTime: number, step: number, grid = 'global.0p25'): string {
  const { yyyymmdd, hh } = runParts(refTime);
  return `${base}/gfs.${yyyymmdd}/${hh}/wave/gridded/gfswave.t${hh}z.${grid}.f${hour3(step)}.grib2`;
}

export const GFS_WAVE_FIELDS: readonly FieldSpec<NoaaIndexEntry>[] = [
  // Significant height of combined wind waves and swell.
  noaaField('HTSGW', 'surface'),
  // Primary wave direction and mean period, for the wave arrows.
  noaaField('DIRPW', 'surface', true),
  noaaField('PERPW', 'surface', true),
  // Wind waves and the three swell partitions (GFS-Wave inventory: SWELL:1 in sequence ...).
  ...['WVHGT', 'WVDIR', 'WVPER'].map((v) => noaaField(v, 'surface', true)),
  ...[1, 2, 3].flatMap((n) => ['SWELL', 'SWDIR', 'SWPER'].map((v) => noaaField(v, `${n} in sequence`, true))),
];

/** As GFS's options; `grid` is `global.0p25` (default), `global.0p16`, `atlocn.0p16`... */
export type GfsWaveOptions = GfsOptions;

export function createGfsWaveSource(options: GfsWaveOptions = {}): IndexedSource<NoaaIndexEntry> {
  const product = PRODUCTS.gfsWave ?? PRODUCTS.gfs;
  const base = (options.baseUrl ?? DEFAULT_GFS_URL).replace(/\/+$/, '');
  const grid = options.grid ?? 'global.0p25';
  const steps = options.steps ?? stepRange(0, Math.min(options.forecastHours ?? Infinity, product.forecastSize), options.stepHours ?? 3);
  return new IndexedSource({
    id: 'gfsWave', product: 'gfsWave', label: 'NOAA GFS-Wave',
    intervalMinutes: product.interval, premiumIntervalMinutes: product.premiumInterval,
    schedule: options.schedule ?? { ...GFS_SCHEDULE, publishDelayMinutes: GFS_SCHEDULE.publishDelayMinutes + 30 },
    steps: () => steps,
    dataUrl: (refTime, step) => gfsWaveDataUrl(base, refTime, step, grid),
    indexUrl: (refTime, step) => `${gfsWaveDataUrl(base, refTime, step, grid)}.idx`,
    parseIndex: parseNoaaIndex,
    fields: options.fields ?? GFS_WAVE_FIELDS,
    concurrency: options.concurrency,
    unsupportedReason: PRODUCTS.gfsWave ? undefined : NO_PRODUCT('gfsWave'),
    minRequestIntervalMs: new URL(base).hostname.startsWith('nomads.') ? NOMADS_REQUEST_INTERVAL_MS : undefined,
  });
}
