/**
 * DWD ICON open data (https://opendata.dwd.de/weather/nwp/, Datenlizenz Deutschland 2.0 "© DWD"):
 * one bzip2-compressed GRIB2 file per variable, step (and level), no index, each run's files
 * replacing the previous day's in the run hour's directory:
 *   {base}/icon/grib/HH/{var}/icon_global_icosahedral_single-level_YYYYMMDDHH_FFF_{VAR}.grib2.bz2
 *   {base}/icon/grib/HH/{var}/icon_global_icosahedral_pressure-level_YYYYMMDDHH_FFF_{hPa}_{VAR}.grib2.bz2
 *   {base}/icon-eu/grib/HH/{var}/icon-eu_europe_regular-lat-lon_single-level_YYYYMMDDHH_FFF_{VAR}.grib2.bz2
 *   {base}/icon-eu/grib/HH/{var}/icon-eu_europe_regular-lat-lon_pressure-level_YYYYMMDDHH_FFF_{hPa}_{VAR}.grib2.bz2
 * ICON global: 00/12 UTC to 180 h, 06/18 UTC to 120 h (hourly to 78 h, then 3-hourly). ICON-EU:
 * 00/06/12/18 UTC to 120 h (the 03/09/15/21 UTC runs reach 30 h only). Isobar takes 3-hourly steps.
 *
 * ICON global exists only on ICON's icosahedral grid (GRIB2 grid template 3.101, 2 949 120 cells
 * whose coordinates are in a separate grid file): the decoder does not regrid it, so the source is
 * defined and tested but the scheduler refuses to run it (unsupportedReason). ICON-EU is on a
 * regular 0.0625° grid and runs.
 */

import { PRODUCTS } from '../../common/catalogue/index.ts';
import { PerFileSource, type PerFileField } from './perFileSource.ts';
import { hour3, PRESSURE_LEVELS_HPA, runParts, stepRange, type RunSchedule } from './source.ts';

export const DEFAULT_DWD_URL = 'https://opendata.dwd.de/weather/nwp';

export type IconModel = 'icon' | 'icon-eu';

const FILE_PREFIX: Record<IconModel, string> = {
  icon: 'icon_global_icosahedral',
  'icon-eu': 'icon-eu_europe_regular-lat-lon',
};

export function iconListingUrl(base: string, model: IconModel, refTime: number, field: PerFileField): string {
  return `${base}/${model}/grib/${runParts(refTime).hh}/${field.variable.toLowerCase()}/`;
}

export function iconFileName(model: IconModel, refTime: number, step: number, field: PerFileField): string {
  const { yyyymmddhh } = runParts(refTime);
  const kind = field.levelHPa === undefined ? 'single-level' : 'pressure-level';
  const level = field.levelHPa === undefined ? '' : `${field.levelHPa}_`;
  return `${FILE_PREFIX[model]}_${kind}_${yyyymmddhh}_${hour3(step)}_${level}${field.variable}.grib2.bz2`;
}

export const ICON_FIELDS: readonly PerFileField[] = [
  { variable: 'U_10M' }, { variable: 'V_10M' }, { variable: 'T_2M' }, { variable: 'PMSL' },
  { variable: 'VMAX_10M', optional: true },
  { variable: 'TD_2M', optional: true }, { variable: 'RELHUM_2M', optional: true },
  { variable: 'TOT_PREC', optional: true },
  { variable: 'CLCL', optional: true }, { variable: 'CLCM', optional: true }, { variable: 'CLCH', optional: true }, { variable: 'CLCT', optional: true },
  { variable: 'CAPE_ML', optional: true },
  // FI: geopotential (m² s⁻²).
  ...PRESSURE_LEVELS_HPA.flatMap((levelHPa) => ['U', 'V', 'T', 'FI'].map((variable) => ({ variable, levelHPa }))),
];

// DWD keeps one run per run hour: a day back is all there is.
export const ICON_SCHEDULE: RunSchedule = { runHours: [0, 6, 12, 18], publishDelayMinutes: 4 * 60, lookbackHours: 24 };

/** ICON global reaches 180 h from 00/12 UTC and 120 h from 06/18 UTC. */
export function iconSteps(refTime: number, forecastHours: number, stepHours: number): number[] {
  const reach = new Date(refTime).getUTCHours() % 12 === 0 ? 180 : 120;
  return forecastHours > reach ? [] : stepRange(0, forecastHours, stepHours);
}

export interface IconOptions {
  baseUrl?: string;
  forecastHours?: number;
  stepHours?: number;
  /** Replaces the step list (tests). */
  steps?: number[];
  fields?: readonly PerFileField[];
  schedule?: RunSchedule;
  concurrency?: number;
}

export const ICOSAHEDRAL_REASON = 'DWD publishes ICON global only on its icosahedral grid (GRIB2 grid template 3.101); '
  + 'Isobar decodes regular grids and does not regrid, so the scheduler does not run it. Use iconEu (regular 0.0625°, Europe).';

export function createIconSource(options: IconOptions = {}): PerFileSource {
  const product = PRODUCTS.icon;
  const base = (options.baseUrl ?? DEFAULT_DWD_URL).replace(/\/+$/, '');
  const forecastHours = Math.min(options.forecastHours ?? Infinity, product.forecastSize);
  return new PerFileSource({
    id: 'icon', product: product.ident, label: 'DWD ICON',
    intervalMinutes: product.interval, premiumIntervalMinutes: product.premiumInterval,
    schedule: options.schedule ?? ICON_SCHEDULE,
    steps: (refTime) => options.steps ?? iconSteps(refTime, forecastHours, options.stepHours ?? 3),
    listingUrl: (refTime, field) => iconListingUrl(base, 'icon', refTime, field),
    fileName: (refTime, step, field) => iconFileName('icon', refTime, step, field),
    fields: options.fields ?? ICON_FIELDS,
    concurrency: options.concurrency,
    unsupportedReason: ICOSAHEDRAL_REASON,
  });
}

export function createIconEuSource(options: IconOptions = {}): PerFileSource {
  const product = PRODUCTS.iconEu;
  const base = (options.baseUrl ?? DEFAULT_DWD_URL).replace(/\/+$/, '');
  const steps = options.steps ?? stepRange(0, Math.min(120, Math.min(options.forecastHours ?? Infinity, product.forecastSize)), options.stepHours ?? 3);
  return new PerFileSource({
    id: 'iconEu', product: product.ident, label: 'DWD ICON-EU',
    intervalMinutes: product.interval, premiumIntervalMinutes: product.premiumInterval,
    schedule: options.schedule ?? ICON_SCHEDULE,
    steps: () => steps,
    listingUrl: (refTime, field) => iconListingUrl(base, 'icon-eu', refTime, field),
    fileName: (refTime, step, field) => iconFileName('icon-eu', refTime, step, field),
    fields: options.fields ?? ICON_FIELDS,
    concurrency: options.concurrency,
  });
}
