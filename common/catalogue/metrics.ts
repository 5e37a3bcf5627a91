/**
 * Metrics: the physical quantities the product shows, each with its allowed units, conversion
 * from and back to the base unit the data is stored in, display precision and legend lines.
 * Constants are SPEC §9 "Units"; the default unit rule is SPEC §3 "Metric" (units[0] is the metric
 * default, units[1] the imperial default); the saved choice is the setting `metric_{ident}`.
 */

export interface UnitDef {
  /** Base unit value -> this unit. */
  to(base: number): number;
  /** This unit -> base unit value. */
  from(value: number): number;
  /** Decimals shown. */
  precision: number;
  /** Legend labels, in this unit, ascending. */
  legend: readonly number[];
  /** Label appended to a value ("°C" shows as 12°C, "kt" as 12 kt). */
  label: string;
}

export interface Metric {
  ident: string;
  /** Base unit of the data (what tiles and the point store hold). */
  base: string;
  /** Allowed units; [0] is the metric default, [1] the imperial default. */
  units: readonly string[];
  conv: Readonly<Record<string, UnitDef>>;
  /**
   * The values are class codes, not a quantity (SPEC §9 precipitation type codes 0-11, the EEA
   * index levels 1-6): their colour scales are `qualitative` (SPEC §3), and the ingest regrid, the
   * raster and the picker take the nearest node's code and never blend two codes (or two steps)
   * into one that is not there. A qualitative colour scale over a quantity (the PM2.5 tiers) is not enough.
   */
  classes?: boolean;
}

/** How values of a metric are sampled between grid nodes (engine/regrid.ts Sampling). */
export function samplingOf(metric: Pick<Metric, 'classes'>): 'bilinear' | 'nearest' {
  return metric.classes ? 'nearest' : 'bilinear';
}

// SPEC §9 Units
const MS_TO_KT = 1.943844;
const MS_TO_KMH = 3.6;
const MS_TO_MPH = 2.236936;
export const BEAUFORT_THRESHOLDS_MS = [0.3, 1.5, 3.3, 5.5, 8, 10.8, 13.9, 17.2, 20.7, 24.5, 28.4, 32.6] as const;
export const KELVIN_OFFSET = 273.15;
const PA_PER_HPA = 100;
const PA_PER_MMHG = 133.322;
const PA_PER_INHG = 3386.389;
const MM_TO_IN = 0.0394;
const CM_TO_IN = 0.39;
const M_TO_FT = 3.28;
export const MILE_M = 1609.344;
const NAUTICAL_MILE_M = 1852;
const ACRES_PER_KM2 = 247.105;
/** Marshall–Palmer Z = a R^b with b = 1.6 (SPEC §9: radar dBZ to mm/h by Z-R power 1.6). */
const ZR_A = 200;
const ZR_B = 1.6;

/** Beaufort force for a wind speed in m/s (SPEC §9 thresholds). */
export function beaufort(ms: number): number {
  let force = 0;
  for (const t of BEAUFORT_THRESHOLDS_MS) if (ms >= t) force++;
  return force;
}

/** Middle of a Beaufort force's speed range, in m/s (force 12 maps to its lower bound). */
export function beaufortToMs(force: number): number {
  const f = Math.max(0, Math.min(12, Math.round(force)));
  const lo = f === 0 ? 0 : BEAUFORT_THRESHOLDS_MS[f - 1];
  const hi = f === 12 ? lo : BEAUFORT_THRESHOLDS_MS[f];
  return (lo + hi) / 2;
}

/** dBZ -> mm/h through Z = a R^b. */
export function dbzToMmh(dbz: number): number {
  return (10 ** (dbz / 10) / ZR_A) ** (1 / ZR_B);
}

export function mmhToDbz(mmh: number): number {
  return mmh > 0 ? 10 * Math.log10(ZR_A * mmh ** ZR_B) : -Infinity;
}

const linear = (factor: number, precision: number, label: string, legend: readonly number[], offset = 0): UnitDef => ({
  to: (v) => v * factor + offset,
  from: (v) => (v - offset) / factor,
  precision,
  label,
  legend,
});

export const METRICS: Readonly<Record<string, Metric>> = {
  wind: {
    ident: 'wind',
    base: 'm/s',
    units: ['kt', 'mph', 'm/s', 'km/h', 'bft'],
    conv: {
      kt: linear(MS_TO_KT, 0, 'kt', [0, 5, 10, 15, 20, 30, 40, 60]),
      mph: linear(MS_TO_MPH, 0, 'mph', [0, 5, 10, 20, 30, 40, 60, 80]),
      'm/s': linear(1, 0, 'm/s', [0, 3, 5, 10, 15, 20, 30]),
      'km/h': linear(MS_TO_KMH, 0, 'km/h', [0, 10, 20, 30, 40, 60, 80, 100]),
      bft: { to: beaufort, from: beaufortToMs, precision: 0, label: 'bft', legend: [0, 2, 4, 6, 8, 10, 12] },
    },
  },
  temp: {
    ident: 'temp',
    base: 'K',
    units: ['°C', '°F'],
    conv: {
      '°C': linear(1, 0, '°C', [-40, -30, -20, -10, 0, 10, 20, 30, 40], -KELVIN_OFFSET),
      '°F': linear(9 / 5, 0, '°F', [-40, -20, 0, 20, 40, 60, 80, 100], -KELVIN_OFFSET * 9 / 5 + 32),
    },
  },
  pressure: {
    ident: 'pressure',
    base: 'Pa',
    units: ['hPa', 'inHg', 'mmHg'],
    conv: {
      hPa: linear(1 / PA_PER_HPA, 0, 'hPa', [970, 980, 990, 1000, 1010, 1020, 1030, 1040]),
      inHg: linear(1 / PA_PER_INHG, 2, 'inHg', [28.8, 29.2, 29.6, 30, 30.4, 30.8]),
      mmHg: linear(1 / PA_PER_MMHG, 0, 'mmHg', [730, 740, 750, 760, 770, 780]),
    },
  },
  rain: {
    ident: 'rain',
    base: 'mm/h',
    units: ['mm/h', 'in/h'],
    conv: {
      'mm/h': linear(1, 1, 'mm/h', [0.5, 1, 2, 5, 10, 20, 30]),
      'in/h': linear(MM_TO_IN, 2, 'in/h', [0.02, 0.04, 0.1, 0.2, 0.4, 0.8, 1.2]),
    },
  },
  /** Radar reflectivity; the legend and the picker add the rain rate it means (dbzToMmh, SPEC §9). */
  reflectivity: {
    ident: 'reflectivity',
    base: 'dBZ',
    units: ['dBZ'],
    conv: { dBZ: linear(1, 0, 'dBZ', [10, 20, 30, 40, 50, 60, 70]) },
  },
  clouds: {
    ident: 'clouds',
    base: '%',
    units: ['%'],
    conv: { '%': linear(1, 0, '%', [0, 20, 40, 60, 80, 100]) },
  },
  humidity: {
    ident: 'humidity',
    base: '%',
    units: ['%'],
    conv: { '%': linear(1, 0, '%', [0, 20, 40, 60, 80, 100]) },
  },
  cape: {
    ident: 'cape',
    base: 'J/kg',
    units: ['J/kg'],
    conv: { 'J/kg': linear(1, 0, 'J/kg', [0, 250, 500, 1000, 2000, 3000, 4000]) },
  },
  /** Precipitation amounts (accumulations); rates are `rain`. */
  precip: {
    ident: 'precip',
    base: 'mm',
    units: ['mm', 'in'],
    conv: {
      mm: linear(1, 1, 'mm', [1, 5, 10, 20, 50, 100, 200]),
      in: linear(MM_TO_IN, 2, 'in', [0.05, 0.2, 0.4, 0.8, 2, 4, 8]),
    },
  },
  altitude: {
    ident: 'altitude',
    base: 'm',
    units: ['m', 'ft'],
    conv: {
      m: linear(1, 0, 'm', [0, 500, 1000, 2000, 3000, 4000]),
      ft: linear(M_TO_FT, 0, 'ft', [0, 2000, 4000, 6000, 10000, 14000]),
    },
  },
  waves: {
    ident: 'waves',
    base: 'm',
    units: ['m', 'ft'],
    conv: {
      m: linear(1, 1, 'm', [0.5, 1, 2, 3, 5, 8]),
      ft: linear(M_TO_FT, 0, 'ft', [2, 4, 6, 10, 16, 26]),
    },
  },
  /** Heights of clouds (tops reach 16 km): the altitude units with lines over the whole range. */
  cloudHeight: {
    ident: 'cloudHeight',
    base: 'm',
    units: ['m', 'ft'],
    conv: {
      m: linear(1, 0, 'm', [0, 1000, 3000, 6000, 10000, 15000]),
      ft: linear(M_TO_FT, 0, 'ft', [0, 5000, 10000, 20000, 30000, 45000]),
    },
  },
  /** Total column ozone in Dobson units (1 DU = 2.1415e-5 kg/m², variables.ts). */
  ozone: {
    ident: 'ozone',
    base: 'DU',
    units: ['DU'],
    conv: { DU: linear(1, 0, 'DU', [150, 200, 250, 300, 350, 400, 450, 500]) },
  },
  /** SPEC §9 precipitation type codes 0-11: classes, named by classes.ts PRECIPITATION_TYPES. */
  ptype: {
    ident: 'ptype',
    base: 'code',
    units: ['type'],
    conv: { type: linear(1, 0, '', [1, 2, 3, 4, 5, 6, 7, 8]) },
    classes: true,
  },
  /** Visibility: SPEC §9 mile and nautical mile. */
  visibility: {
    ident: 'visibility',
    base: 'm',
    units: ['km', 'mi', 'NM', 'm'],
    conv: {
      km: linear(1 / 1000, 1, 'km', [0.2, 1, 2, 5, 10, 20]),
      mi: linear(1 / MILE_M, 1, 'mi', [0.1, 0.5, 1, 3, 6, 12]),
      NM: linear(1 / NAUTICAL_MILE_M, 1, 'NM', [0.1, 0.5, 1, 3, 5, 10]),
      m: linear(1, 0, 'm', [200, 1000, 2000, 5000, 10000, 20000]),
    },
  },
  /** Wave period, s (the point forecast's wave rows). */
  period: {
    ident: 'period',
    base: 's',
    units: ['s'],
    conv: { s: linear(1, 0, 's', [2, 4, 6, 8, 10, 12, 15, 20]) },
  },
  /** Direction, degrees clockwise from north. */
  direction: {
    ident: 'direction',
    base: '°',
    units: ['°'],
    conv: { '°': linear(1, 0, '°', [0, 90, 180, 270, 360]) },
  },
  /** Speed of ocean currents: SPEC §9 knots and km/h per m/s. */
  current: {
    ident: 'current',
    base: 'm/s',
    units: ['kt', 'mph', 'm/s', 'km/h'],
    conv: {
      kt: linear(MS_TO_KT, 1, 'kt', [0, 0.5, 1, 2, 3, 4]),
      mph: linear(MS_TO_MPH, 1, 'mph', [0, 0.5, 1, 2, 3, 4]),
      'm/s': linear(1, 2, 'm/s', [0, 0.25, 0.5, 1, 1.5, 2]),
      'km/h': linear(MS_TO_KMH, 1, 'km/h', [0, 1, 2, 4, 6, 8]),
    },
  },
  /** Particulate matter (PM2.5, PM10) mass concentration. */
  pm: {
    ident: 'pm',
    base: 'µg/m³',
    units: ['µg/m³'],
    conv: { 'µg/m³': linear(1, 0, 'µg/m³', [0, 10, 25, 50, 100, 150, 250, 400, 600]) },
  },
  /** Aerosol optical depth: dimensionless, shown bare ("0.35"); the legend names it. */
  aod: {
    ident: 'aod',
    base: '1',
    units: ['AOD'],
    conv: { AOD: linear(1, 2, '', [0, 0.1, 0.2, 0.5, 1, 2, 3]) },
  },
  snow: {
    ident: 'snow',
    base: 'cm',
    units: ['cm', 'in'],
    conv: {
      cm: linear(1, 0, 'cm', [1, 5, 10, 20, 50, 100]),
      in: linear(CM_TO_IN, 1, 'in', [0.5, 2, 4, 8, 20, 40]),
    },
  },
  area: {
    ident: 'area',
    base: 'km²',
    units: ['km²', 'acres'],
    conv: {
      'km²': linear(1, 1, 'km²', [1, 10, 100, 1000]),
      acres: linear(ACRES_PER_KM2, 0, 'acres', [250, 2500, 25000, 250000]),
    },
  },
  distance: {
    ident: 'distance',
    base: 'm',
    units: ['km', 'mi', 'NM'],
    conv: {
      km: linear(1 / 1000, 1, 'km', [1, 10, 100, 1000]),
      mi: linear(1 / MILE_M, 1, 'mi', [1, 10, 100, 1000]),
      NM: linear(1 / NAUTICAL_MILE_M, 1, 'NM', [1, 10, 100, 1000]),
    },
  },
  // ---- Derived fields (server/ingest/derived): fog, thunder, solar power, fire danger, air quality. ----
  /** Fog value of SPEC §9's classes (server/ingest/derived/fog.ts): up to 0.7 none, up to 1 fog, else rime fog. */
  fog: { ident: 'fog', base: '1', units: ['fog'], conv: { fog: linear(1, 2, '', [0, 0.7, 1, 2]) } },
  /** Romps et al. (2014) CAPE x P lightning proxy. */
  thunder: { ident: 'thunder', base: 'W/m²', units: ['W/m²'], conv: { 'W/m²': linear(1, 2, 'W/m²', [0, 0.1, 0.3, 1, 3, 10]) } },
  /** Irradiance (global horizontal: an input of solar power). */
  irradiance: { ident: 'irradiance', base: 'W/m²', units: ['W/m²'], conv: { 'W/m²': linear(1, 0, 'W/m²', [0, 200, 400, 600, 800, 1000]) } },
  /** Photovoltaic output in % of the panel's rated power. */
  solarpower: { ident: 'solarpower', base: '%', units: ['%'], conv: { '%': linear(1, 0, '%', [0, 20, 40, 60, 80, 100]) } },
  /** Dead fuel moisture, % of dry weight. */
  /** Volumetric soil moisture: m³ of water per m³ of soil, as %. */
  soilMoisture: { ident: 'soilMoisture', base: '%', units: ['%'], conv: { '%': linear(1, 0, '%', [0, 10, 20, 30, 40, 50]) } },
  fuelMoisture: { ident: 'fuelMoisture', base: '%', units: ['%'], conv: { '%': linear(1, 0, '%', [0, 5, 10, 15, 20, 30]) } },
  /** Canadian Fire Weather Index (dimensionless). */
  fwi: { ident: 'fwi', base: '1', units: ['FWI'], conv: { FWI: linear(1, 0, '', [0, 5, 10, 20, 30, 50]) } },
  /** EEA European Air Quality Index level 1-6. */
  aqi: { ident: 'aqi', base: '1', units: ['EAQI'], conv: { EAQI: linear(1, 0, '', [1, 2, 3, 4, 5, 6]) }, classes: true },
  /** Ellrod & Knapp (1992) TI1 in 1e-7 s⁻². */
  turbulence: { ident: 'turbulence', base: '1e-7/s²', units: ['TI1'], conv: { TI1: linear(1, 1, '', [0, 2, 4, 8, 12, 16]) } },
  /**
   * CAP §3.2.2 severity as a number, the capAlerts layer's one value (common/capAlerts.ts
   * CAP_SEVERITY_LEVEL: 1 Minor .. 4 Extreme); its legend names the classes.
   */
  capSeverity: { ident: 'capSeverity', base: '1', units: ['CAP'], conv: { CAP: linear(1, 0, '', [1, 2, 3, 4]) }, classes: true },
  /** Column amount of a trace gas in Dobson units (2.6867e20 molecules per m²). */
  column: { ident: 'column', base: 'DU', units: ['DU'], conv: { DU: linear(1, 1, 'DU', [0, 0.5, 1, 2, 5, 10]) } },
};

class UnknownUnitError extends Error {
  override name = 'UnknownUnitError';
}

/**
 * Converts a base-unit value to `unit`. SPEC §5: an unknown unit logs an error and returns 0;
 * `onError` receives the error (default: console.error).
 */
export function convert(metric: Metric, unit: string, base: number, onError: (e: Error) => void = console.error): number {
  const def = metric.conv[unit];
  if (!def) {
    onError(new UnknownUnitError(`Unknown unit "${unit}" for metric ${metric.ident}`));
    return 0;
  }
  return def.to(base);
}

export function convertBack(metric: Metric, unit: string, value: number, onError: (e: Error) => void = console.error): number {
  const def = metric.conv[unit];
  if (!def) {
    onError(new UnknownUnitError(`Unknown unit "${unit}" for metric ${metric.ident}`));
    return 0;
  }
  return def.from(value);
}

/** Default unit of a metric for a unit system (SPEC §3: imperial default is the second). */
export function defaultUnit(metric: Metric, system: 'metric' | 'imperial'): string {
  return system === 'imperial' && metric.units.length > 1 ? metric.units[1] : metric.units[0];
}

/** "12°C", "15 kt": a base value shown in a unit with the unit's precision. */
export function formatValue(metric: Metric, unit: string, base: number): string {
  const def = metric.conv[unit] ?? metric.conv[metric.units[0]];
  const label = metric.conv[unit] ? unit : metric.units[0];
  if (!Number.isFinite(base)) return '—';
  const v = def.to(base);
  const text = v.toFixed(def.precision).replace(/^-(0\.?0*)$/, '$1');
  if (!def.label) return text;
  return label.startsWith('°') || label === '%' ? `${text}${def.label}` : `${text} ${def.label}`;
}
