/**
 * Section 4, the product definition: what a field is (parameter, level) and when (forecast time,
 * statistical processing). Templates 4.0, 4.1, 4.2, 4.5, 4.6, 4.8, 4.9, 4.10, 4.11, 4.12, 4.15,
 * 4.40-4.43 and 4.48 are read in full; any other template still gives its parameter (octets 10-11 are common to all) and
 * is reported with typeOfLevel 'unknown' and stepRange 'unknown'.
 *
 * Every template of the point-in-time family shares one 23-octet block (generating process ...
 * second fixed surface), only shifted by what comes before it; the statistically processed
 * templates append the same "time range" block after that. So each template is described by
 * where those blocks start.
 */

import type { SectionReader } from './reader.ts';
import { MISSING_U32, MISSING_U8, timeInHours, type FixedSurface } from './tables.ts';

interface ProductLayout {
  /** Octet of "type of generating process", where the common block starts. */
  horizontal: number;
  /** Octet of "year of end of overall time interval", for statistically processed templates. */
  statistics?: number;
  /** Octet of "type of ensemble forecast" (4.1, 4.11, 4.41, 4.43). */
  ensemble?: number;
  /** Octet of "derived forecast" (Code Table 4.7), then the number of forecasts in the ensemble (4.2, 4.12). */
  derived?: number;
  /** Octet of "forecast probability number" (4.5, 4.9): the probability type and limits follow. */
  probability?: number;
  /** Octet of "percentile value" (4.6, 4.10). */
  percentile?: number;
  /** Octet of the two-octet atmospheric chemical constituent or aerosol type (4.40-4.48). */
  constituent?: number;
  /** Octet of "statistical process" of spatial processing (4.15). */
  spatial?: number;
  /**
   * Octets of "type of interval for first and second size" and "... wavelength" (4.48): each is
   * followed by two (scale factor, scaled value) pairs, the limits in metres.
   */
  size?: number;
  wavelength?: number;
}

/** Octet positions, from the template tables of the WMO Manual on Codes (GRIB2 Section 4). */
const LAYOUTS: Record<number, ProductLayout> = {
  0: { horizontal: 12 },
  1: { horizontal: 12, ensemble: 35 },
  2: { horizontal: 12, derived: 35 },
  5: { horizontal: 12, probability: 35 },
  6: { horizontal: 12, percentile: 35 },
  8: { horizontal: 12, statistics: 35 },
  9: { horizontal: 12, probability: 35, statistics: 48 },
  10: { horizontal: 12, percentile: 35, statistics: 36 },
  11: { horizontal: 12, ensemble: 35, statistics: 38 },
  12: { horizontal: 12, derived: 35, statistics: 37 },
  15: { horizontal: 12, spatial: 35 },
  40: { horizontal: 14, constituent: 12 },
  41: { horizontal: 14, constituent: 12, ensemble: 37 },
  42: { horizontal: 14, constituent: 12, statistics: 37 },
  43: { horizontal: 14, constituent: 12, ensemble: 37, statistics: 40 },
  48: { horizontal: 36, constituent: 12, size: 14, wavelength: 25 },
};

export interface TimeRange {
  /** Code Table 4.10 (0 average, 1 accumulation, 2 maximum, 3 minimum...). */
  statisticalProcessing: number;
  /** Code Table 4.11 (1 successive forecasts from one run, 2 successive runs from one forecast time...). */
  typeOfTimeIncrement: number;
  /** Code Table 4.4 unit and length of the range. */
  unit: number;
  length: number;
}

/**
 * An interval of particle sizes or wavelengths (4.48): Code Table 4.91 says which of the limits
 * count (0 smaller than the first, 2/7/10 between the two, 11 equal to the first...); limits in
 * metres, NaN when missing.
 */
export interface Interval {
  type: number;
  first: number;
  second: number;
}

export interface Product {
  template: number;
  /** False when the template's layout is not known here: level and time are then unknown. */
  known: boolean;
  parameterCategory: number;
  parameterNumber: number;
  typeOfGeneratingProcess?: number;
  /** Code Table 4.4 unit of the forecast time, and the forecast time in that unit. */
  forecastTimeUnit?: number;
  forecastTime?: number;
  first: FixedSurface;
  second: FixedSurface;
  /** Statistically processed templates: the time ranges, outermost first. */
  timeRanges?: TimeRange[];
  /** End of the overall time interval, ms UTC. */
  intervalEnd?: number;
  perturbationNumber?: number;
  typeOfEnsembleForecast?: number;
  numberOfForecastsInEnsemble?: number;
  /** 4.2, 4.12: Code Table 4.7 (0 unweighted mean of all members, 2 standard deviation...). */
  derivedForecast?: number;
  /** 4.5, 4.9: Code Table 4.9 probability type and its limits (NaN when missing). */
  probabilityType?: number;
  lowerLimit?: number;
  upperLimit?: number;
  /** 4.6, 4.10: percentile, 100 to 0. */
  percentileValue?: number;
  constituentType?: number;
  /** 4.48: aerosol particle diameters and the optical wavelengths of the field. */
  sizeInterval?: Interval;
  wavelengthInterval?: Interval;
  /** 4.15: Code Table 4.10 statistic and Code Table 4.15 type of the spatial processing. */
  spatialStatistic?: number;
  spatialProcessing?: number;
  /** Number of coordinate values after the template (NV). */
  NV: number;
}

function surface(s: SectionReader, octet: number): FixedSurface {
  const type = s.u8(octet);
  const scaleFactor = s.s8(octet + 1);
  const scaledValue = s.u32(octet + 2);
  const raw = s.u8(octet + 1);
  if (type === MISSING_U8 || scaledValue === MISSING_U32 || raw === MISSING_U8) return { type, value: Number.NaN };
  return { type, value: scaledValue / 10 ** scaleFactor };
}

/** A scale factor (signed octet) and scaled value (u32) pair: the value, NaN when either is missing. */
function scaled(s: SectionReader, octet: number): number {
  const scaledValue = s.u32(octet + 1);
  if (s.u8(octet) === MISSING_U8 || scaledValue === MISSING_U32) return Number.NaN;
  return scaledValue / 10 ** s.s8(octet);
}

/**
 * A probability limit (4.5, 4.9): signed scale factor and signed scaled value, as ecCodes' `signed`
 * keys read them (sign and magnitude); NaN when either is all ones (missing).
 */
function limit(s: SectionReader, octet: number): number {
  if (s.u8(octet) === MISSING_U8 || s.u32(octet + 1) === MISSING_U32) return Number.NaN;
  return s.s32(octet + 1) / 10 ** s.s8(octet);
}

function interval(s: SectionReader, octet: number): Interval {
  return { type: s.u8(octet), first: scaled(s, octet + 1), second: scaled(s, octet + 6) };
}

export function parseProduct(s: SectionReader): Product {
  s.need(11, 'the product definition header');
  const NV = s.u16(6);
  const template = s.u16(8);
  const product: Product = {
    template, known: false, parameterCategory: s.u8(10), parameterNumber: s.u8(11), NV,
    first: { type: MISSING_U8, value: Number.NaN }, second: { type: MISSING_U8, value: Number.NaN },
  };
  const layout = LAYOUTS[template];
  if (!layout) return product;
  const h = layout.horizontal;
  s.need(h + 22, `product definition template 4.${template}`);
  product.known = true;
  product.typeOfGeneratingProcess = s.u8(h);
  product.forecastTimeUnit = s.u8(h + 6);
  product.forecastTime = s.s32(h + 7);
  product.first = surface(s, h + 11);
  product.second = surface(s, h + 17);
  if (layout.constituent !== undefined) product.constituentType = s.u16(layout.constituent);
  if (layout.size !== undefined) product.sizeInterval = interval(s, layout.size);
  if (layout.wavelength !== undefined) product.wavelengthInterval = interval(s, layout.wavelength);
  if (layout.ensemble !== undefined) {
    product.typeOfEnsembleForecast = s.u8(layout.ensemble);
    product.perturbationNumber = s.u8(layout.ensemble + 1);
    product.numberOfForecastsInEnsemble = s.u8(layout.ensemble + 2);
  }
  if (layout.derived !== undefined) {
    product.derivedForecast = s.u8(layout.derived);
    product.numberOfForecastsInEnsemble = s.u8(layout.derived + 1);
  }
  if (layout.probability !== undefined) {
    const o = layout.probability;
    s.need(o + 12, `product definition template 4.${template} probability`);
    product.probabilityType = s.u8(o + 2);
    product.lowerLimit = limit(s, o + 3);
    product.upperLimit = limit(s, o + 8);
  }
  if (layout.percentile !== undefined) product.percentileValue = s.u8(layout.percentile);
  if (layout.spatial !== undefined) {
    product.spatialStatistic = s.u8(layout.spatial);
    product.spatialProcessing = s.u8(layout.spatial + 1);
  }
  if (layout.statistics !== undefined) {
    const o = layout.statistics;
    s.need(o + 11, `product definition template 4.${template} time ranges`);
    product.intervalEnd = Date.UTC(s.u16(o), s.u8(o + 2) - 1, s.u8(o + 3), s.u8(o + 4), s.u8(o + 5), s.u8(o + 6));
    const n = s.u8(o + 7);
    s.need(o + 11 + 12 * n, `product definition template 4.${template} with ${n} time ranges`);
    product.timeRanges = [];
    for (let k = 0; k < n; k++) {
      const r = o + 12 + 12 * k;
      product.timeRanges.push({ statisticalProcessing: s.u8(r), typeOfTimeIncrement: s.u8(r + 1), unit: s.u8(r + 2), length: s.u32(r + 3) });
    }
  }
  return product;
}

/**
 * A step, or range of steps, in hours as ecCodes 2.28 prints it (g2step_range): whole hours in
 * hours; otherwise both ends in minutes, without a unit ("90", "90-150": its stepUnits key then
 * says minutes).
 */
function formatSteps(...hours: number[]): string {
  if (hours.every(Number.isInteger)) return hours.join('-');
  const minutes = hours.map((h) => Math.round(h * 60 * 1e6) / 1e6);
  return (minutes.every(Number.isInteger) ? minutes : hours).join('-');
}

/**
 * ecCodes' stepType of a statistically processed field (grib2/template.4.statistical.def, concept
 * stepTypeInternal): Code Table 4.10 statistic of the first time range, and for averages and
 * accumulations Code Table 4.11 type of time increment; undefined where ecCodes finds no match.
 */
function statisticalStepType({ statisticalProcessing: p, typeOfTimeIncrement: i }: TimeRange): string | undefined {
  if (p === 0) return i === 2 || i === 3 ? 'avg' : i === 1 ? 'avgd' : undefined;
  if (p === 1) return i === 2 ? 'accum' : undefined;
  return STEP_TYPES[p];
}

const STEP_TYPES: Record<number, string> = {
  2: 'max', 3: 'min', 4: 'diff', 5: 'rms', 6: 'sd', 7: 'cov', 8: 'sdiff', 9: 'ratio', 10: 'stdanom', 11: 'sum',
  100: 'severity', 101: 'mode', 255: 'instant',
};

export interface Step {
  /** Forecast hours after the reference time of the start and end of the field's time range. */
  forecastStart: number;
  forecastEnd: number;
  /** ecCodes stepRange: "6" at a point in time, "0-6" over a range; 'unknown' when unread. */
  stepRange: string;
  /** ecCodes stepType ('instant', 'accum', 'avg', 'max'...); undefined where ecCodes has none. */
  stepType?: string;
}

/**
 * Forecast start and end in hours, ecCodes' stepRange ("6" at a point in time, "0-6" over a
 * statistically processed range, "6" again when the range is empty; "unavailable" for other than
 * one or two time ranges, as ecCodes) and stepType.
 */
export function stepOf(product: Product): Step {
  if (!product.known || product.forecastTime === undefined || product.forecastTimeUnit === undefined) {
    return { forecastStart: Number.NaN, forecastEnd: Number.NaN, stepRange: 'unknown' };
  }
  const start = timeInHours(product.forecastTime, product.forecastTimeUnit);
  if (start === undefined) return { forecastStart: Number.NaN, forecastEnd: Number.NaN, stepRange: 'unknown' };
  const ranges = product.timeRanges;
  if (!ranges) return { forecastStart: start, forecastEnd: start, stepRange: formatSteps(start), stepType: 'instant' };
  if (ranges.length < 1 || ranges.length > 2) {
    return { forecastStart: start, forecastEnd: start, stepRange: 'unavailable', stepType: 'multiple steps' };
  }
  const range = ranges[0];
  const stepType = statisticalStepType(range);
  const length = range.length === MISSING_U32 ? 0 : timeInHours(range.length, range.unit);
  if (length === undefined) return { forecastStart: start, forecastEnd: Number.NaN, stepRange: 'unknown', stepType };
  const end = start + length;
  return {
    forecastStart: start, forecastEnd: end,
    stepRange: end === start ? formatSteps(end) : formatSteps(start, end), stepType,
  };
}
