/**
 * ECMWF open data (CC-BY-4.0: "© ECMWF"), IFS 0.25° and AIFS single, one file per step with a
 * JSON-lines `.index` beside it (https://www.ecmwf.int/en/forecasts/datasets/open-data):
 *   {base}/YYYYMMDD/HHz/ifs/0p25/oper/YYYYMMDDHH0000-{step}h-oper-fc.grib2      (.index instead of .grib2)
 *   {base}/YYYYMMDD/HHz/aifs-single/0p25/oper/YYYYMMDDHH0000-{step}h-oper-fc.grib2
 * IFS (since cycle 50r1 the 06/18 UTC runs are stream `oper` too; before, `scda`): 00 and 12 UTC
 * run to 360 h, 3-hourly to 144 h then 6-hourly; 06 and 18 UTC to 144 h, 3-hourly. Open data comes
 * one hour after the dissemination schedule, the last step roughly 8 hours after the run.
 * AIFS single: 00, 06, 12, 18 UTC, 6-hourly to 360 h, published as soon as produced.
 * Mirrors with the same layout: https://ecmwf-forecasts.s3.eu-central-1.amazonaws.com and others.
 */

import { PRODUCTS } from '../../common/catalogue/index.ts';
import { IndexedSource, type FieldSpec } from './indexedSource.ts';
import { parseEcmwfIndex, type EcmwfIndexEntry } from './indexFiles.ts';
import { NO_PRODUCT, PRESSURE_LEVELS_HPA, runParts, stepRange, type RunSchedule } from './source.ts';

export const DEFAULT_ECMWF_URL = 'https://data.ecmwf.int/forecasts';

export type EcmwfModel = 'ifs' | 'aifs-single';

export function ecmwfDataUrl(base: string, model: EcmwfModel, refTime: number, step: number, stream = 'oper'): string {
  const { yyyymmdd, hh, yyyymmddhh } = runParts(refTime);
  return `${base}/${yyyymmdd}/${hh}z/${model}/0p25/${stream}/${yyyymmddhh}0000-${step}h-${stream}-fc.grib2`;
}

export function ecmwfIndexUrl(dataUrl: string): string {
  return dataUrl.replace(/\.grib2$/, '.index');
}

/** One field as the `.index` names it (MARS `param`, `levtype`, `levelist`); several names may be given. */
export function ecmwfField(param: string | string[], levelHPa?: number, optional = false): FieldSpec<EcmwfIndexEntry> {
  const params = Array.isArray(param) ? param : [param];
  const levtype = levelHPa === undefined ? 'sfc' : 'pl';
  const levelist = levelHPa === undefined ? undefined : String(levelHPa);
  return {
    name: `${params.join('|')}${levelist ? `@${levelist} hPa` : ''}`,
    match: (e) => params.includes(e.param) && e.levtype === levtype && (levelist === undefined || e.levelist === levelist),
    optional,
  };
}

// 2 m relative humidity is not in the open data: the ingest derives it from 2t and 2d.
export const IFS_FIELDS: readonly FieldSpec<EcmwfIndexEntry>[] = [
  ecmwfField('10u'), ecmwfField('10v'), ecmwfField('2t'), ecmwfField('2d'), ecmwfField('msl'),
  ecmwfField('tp', undefined, true),
  // Gust since the previous post-processing step; absent at step 0.
  ecmwfField('10fg', undefined, true),
  ecmwfField('tcc', undefined, true), ecmwfField('lcc', undefined, true), ecmwfField('mcc', undefined, true), ecmwfField('hcc', undefined, true),
  ecmwfField(['mucape', 'cape'], undefined, true),
  // Precipitation type; snow depth from its water equivalent and density.
  ecmwfField('ptype', undefined, true), ecmwfField('sd', undefined, true), ecmwfField('rsn', undefined, true),
  ...PRESSURE_LEVELS_HPA.flatMap((hPa) => [ecmwfField('u', hPa), ecmwfField('v', hPa), ecmwfField('t', hPa), ecmwfField('gh', hPa)]),
];

// AIFS has no gust and no CAPE; its pressure-level geopotential is `z` (m² s⁻²).
export const AIFS_FIELDS: readonly FieldSpec<EcmwfIndexEntry>[] = [
  ecmwfField('10u'), ecmwfField('10v'), ecmwfField('2t'), ecmwfField('2d', undefined, true), ecmwfField('msl'),
  ecmwfField('tp', undefined, true),
  ecmwfField('tcc', undefined, true), ecmwfField('lcc', undefined, true), ecmwfField('mcc', undefined, true), ecmwfField('hcc', undefined, true),
  ...PRESSURE_LEVELS_HPA.flatMap((hPa) => [ecmwfField('u', hPa), ecmwfField('v', hPa), ecmwfField('t', hPa), ecmwfField(['z', 'gh'], hPa, true)]),
];

/** IFS steps of a run up to `forecastHours`; empty when the run does not reach that far. */
export function ifsSteps(refTime: number, forecastHours: number): number[] {
  const main = new Date(refTime).getUTCHours() % 12 === 0;
  const reach = main ? 360 : 144;
  if (forecastHours > reach) return [];
  return [...stepRange(0, Math.min(144, forecastHours), 3), ...stepRange(150, forecastHours, 6)];
}

export const IFS_SCHEDULE: RunSchedule = { runHours: [0, 6, 12, 18], publishDelayMinutes: 7 * 60, lookbackHours: 72 };
export const AIFS_SCHEDULE: RunSchedule = { runHours: [0, 6, 12, 18], publishDelayMinutes: 6 * 60, lookbackHours: 72 };

export interface EcmwfOptions {
  baseUrl?: string;
  forecastHours?: number;
  /** Replaces the model's step list (tests). */
  steps?: number[];
  fields?: readonly FieldSpec<EcmwfIndexEntry>[];
  schedule?: RunSchedule;
  concurrency?: number;
}

export function createEcmwfSource(options: EcmwfOptions = {}): IndexedSource<EcmwfIndexEntry> {
  const product = PRODUCTS.ecmwf;
  const base = (options.baseUrl ?? DEFAULT_ECMWF_URL).replace(/\/+$/, '');
  const forecastHours = Math.min(options.forecastHours ?? Infinity, product.forecastSize);
  return new IndexedSource({
    id: 'ecmwf', product: product.ident, label: 'ECMWF IFS',
    intervalMinutes: product.interval, premiumIntervalMinutes: product.premiumInterval,
    schedule: options.schedule ?? IFS_SCHEDULE,
    steps: (refTime) => options.steps ?? ifsSteps(refTime, forecastHours),
    dataUrl: (refTime, step) => ecmwfDataUrl(base, 'ifs', refTime, step),
    indexUrl: (refTime, step) => ecmwfIndexUrl(ecmwfDataUrl(base, 'ifs', refTime, step)),
    parseIndex: parseEcmwfIndex,
    fields: options.fields ?? IFS_FIELDS,
    concurrency: options.concurrency,
  });
}

/** Intervals and length from the catalogue's `aifs` product (the ECMWF product's while it lacks one); ingest product `aifs`. */
export function createAifsSource(options: EcmwfOptions = {}): IndexedSource<EcmwfIndexEntry> {
  const product = PRODUCTS.aifs ?? PRODUCTS.ecmwf;
  const base = (options.baseUrl ?? DEFAULT_ECMWF_URL).replace(/\/+$/, '');
  const steps = options.steps ?? stepRange(0, Math.min(360, Math.min(options.forecastHours ?? Infinity, product.forecastSize)), 6);
  return new IndexedSource({
    id: 'aifs', product: 'aifs', label: 'ECMWF AIFS',
    intervalMinutes: product.interval, premiumIntervalMinutes: product.premiumInterval,
    schedule: options.schedule ?? AIFS_SCHEDULE,
    steps: () => steps,
    dataUrl: (refTime, step) => ecmwfDataUrl(base, 'aifs-single', refTime, step),
    indexUrl: (refTime, step) => ecmwfIndexUrl(ecmwfDataUrl(base, 'aifs-single', refTime, step)),
    parseIndex: parseEcmwfIndex,
    fields: options.fields ?? AIFS_FIELDS,
    concurrency: options.concurrency,
    unsupportedReason: PRODUCTS.aifs ? undefined : NO_PRODUCT('aifs'),
  });
}
