/**
 * NOAA GFS 0.25° (public domain). Files and their wgrib2 `.idx` indexes, in the NOMADS layout
 *   {base}/gfs.YYYYMMDD/HH/atmos/gfs.tHHz.pgrb2.0p25.fFFF(.idx)
 * which the AWS Open Data mirror repeats under https://noaa-gfs-bdp-pds.s3.amazonaws.com.
 * Runs at 00, 06, 12, 18 UTC; hourly steps to 120 h, 3-hourly to 384 h; the last step is out about
 * 5 hours after the run. Isobar takes 3-hourly steps (SPEC §9 default step) to the product's
 * forecast length.
 */

import { PRODUCTS } from '../../common/catalogue/index.ts';
import { IndexedSource, type FieldSpec } from './indexedSource.ts';
import { parseNoaaIndex, type NoaaIndexEntry } from './indexFiles.ts';
import { hour3, PRESSURE_LEVELS_HPA, runParts, stepRange, type RunSchedule } from './source.ts';

export const AWS_GFS_URL = 'https://noaa-gfs-bdp-pds.s3.amazonaws.com';
export const NOMADS_GFS_URL = 'https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod';
/** The S3 mirror: no request cap, byte ranges supported; NOMADS is the alternative (throttled). */
export const DEFAULT_GFS_URL = AWS_GFS_URL;
/** NOMADS blocks clients above about 120 requests a minute: stay at 100. */
export const NOMADS_REQUEST_INTERVAL_MS = 600;

export function gfsDataUrl(base: string, refTime: number, step: number, grid = '0p25'): string {
  const { yyyymmdd, hh } = runParts(refTime);
  return `${base}/gfs.${yyyymmdd}/${hh}/atmos/gfs.t${hh}z.pgrb2.${grid}.f${hour3(step)}`;
}

/** One field as the `.idx` names it: `VAR:LEVEL`, e.g. `UGRD:10 m above ground`; several names may be given. */
export function noaaField(variable: string | string[], level: string, optional = false): FieldSpec<NoaaIndexEntry> {
  const variables = Array.isArray(variable) ? variable : [variable];
  return { name: `${variables.join('|')}:${level}`, match: (e) => variables.includes(e.variable) && e.level === level, optional };
}

/**
 * Wind, temperature and pressure must be in every step; the rest is taken where present
 * (accumulations and cloud-layer averages have no analysis value at f000). The model's terrain
 * height (HGT at the surface, the point forecast's model elevation) is the same in every step:
 * it comes with the run's first step only.
 */
export const GFS_FIELDS: readonly FieldSpec<NoaaIndexEntry>[] = [
  noaaField('UGRD', '10 m above ground'),
  noaaField('VGRD', '10 m above ground'),
  noaaField('TMP', '2 m above ground'),
  noaaField('PRMSL', 'mean sea level'),
  ...PRESSURE_LEVELS_HPA.flatMap((hPa) => ['UGRD', 'VGRD', 'TMP', 'HGT'].map((v) => noaaField(v, `${hPa} mb`))),
  noaaField('GUST', 'surface', true),
  noaaField('DPT', '2 m above ground', true),
  noaaField('RH', '2 m above ground', true),
  noaaField('CAPE', 'surface', true),
  noaaField('APCP', 'surface', true),
  // The snow on the ground (water equivalent): the snowAccu overlay is its rise over a range.
  noaaField('WEASD', 'surface', true),
  // GFS before 2019 sent cloud layers as TCDC on each layer; since then LCDC, MCDC, HCDC.
  noaaField(['LCDC', 'TCDC'], 'low cloud layer', true),
  noaaField(['MCDC', 'TCDC'], 'middle cloud layer', true),
  noaaField(['HCDC', 'TCDC'], 'high cloud layer', true),
  noaaField('TCDC', 'entire atmosphere', true),
  { ...noaaField('HGT', 'surface', true), firstStepOnly: true },
  // Overlays straight from model fields (common/catalogue/variables.ts MODEL_FIELD_RULES), as the
  // GFS 0.25° pgrb2 inventory names them.
  noaaField('HGT', '0C isotherm', true),
  // wgrib2 names the level 'entire atmosphere (considered as a single layer)'; either reading of it is taken.
  { name: 'TOZNE:entire atmosphere', match: (e) => e.variable === 'TOZNE' && e.level.startsWith('entire atmosphere'), optional: true },
  noaaField('SNOD', 'surface', true),
  ...['CRAIN', 'CSNOW', 'CFRZR', 'CICEP'].map((v) => noaaField(v, 'surface', true)),
  noaaField('PRES', 'convective cloud top level', true),
  noaaField('PRES', 'convective cloud bottom level', true),
  noaaField('HGT', 'cloud ceiling', true),
  noaaField('VIS', 'surface', true),
  noaaField('TMP', 'surface', true),
  noaaField('LAND', 'surface', true),
  noaaField('ICEC', 'surface', true),
];

export const GFS_SCHEDULE: RunSchedule = { runHours: [0, 6, 12, 18], publishDelayMinutes: 4 * 60, lookbackHours: 48 };

export interface GfsOptions {
  baseUrl?: string;
  /** `0p25` (default), `0p50`, `1p00`. */
  grid?: string;
  forecastHours?: number;
  stepHours?: number;
  /** Replaces the step list (tests). */
  steps?: number[];
  fields?: readonly FieldSpec<NoaaIndexEntry>[];
  schedule?: RunSchedule;
  concurrency?: number;
}

export function createGfsSource(options: GfsOptions = {}): IndexedSource<NoaaIndexEntry> {
  const product = PRODUCTS.gfs;
  const base = (options.baseUrl ?? DEFAULT_GFS_URL).replace(/\/+$/, '');
  const grid = options.grid ?? '0p25';
  const steps = options.steps ?? stepRange(0, Math.min(options.forecastHours ?? Infinity, product.forecastSize), options.stepHours ?? 3);
  return new IndexedSource({
    id: 'gfs', product: product.ident, label: 'NOAA GFS',
    intervalMinutes: product.interval, premiumIntervalMinutes: product.premiumInterval,
    schedule: options.schedule ?? GFS_SCHEDULE,
    steps: () => steps,
    dataUrl: (refTime, step) => gfsDataUrl(base, refTime, step, grid),
    indexUrl: (refTime, step) => `${gfsDataUrl(base, refTime, step, grid)}.idx`,
    parseIndex: parseNoaaIndex,
    fields: options.fields ?? GFS_FIELDS,
    concurrency: options.concurrency,
    minRequestIntervalMs: new URL(base).hostname.startsWith('nomads.') ? NOMADS_REQUEST_INTERVAL_MS : undefined,
  });
}
