/**
 * Catalogue variables: the quantities the ingest pipeline stores, where each lands (tile file,
 * channel, level), how it is quantized, and which GRIB2 fields give it (DESIGN.md "Data flow" 1).
 *
 *   GRIB2 field identity                          rule (GRIB_RULES)              variable @ level
 *   discipline / category / number  ──────────>  level type + value, centre,  ──>  file-level.tile
 *   typeOfLevel, level, statistics                statistics, unit conversion       channel c
 *
 * Identities are WMO GRIB2 code table 4.2 (discipline 0 meteorological, 10 oceanographic) with
 * the level names ecCodes gives (`typeOfLevel`). Where centres differ the table lists each way:
 * NCEP's TCDC on low/middle/high cloud layers against ECMWF's lcc/mcc/hcc (4.2-0-6-3/4/5), ECMWF's
 * local total precipitation in metres (4.2-0-1-193 at centre ecmf, which NCEP uses for freezing
 * rain), DWD's TOT_PREC as an accumulated rate (4.2-0-1-52 with statistical processing 1), ECMWF's
 * geopotential (m² s⁻²) where NCEP sends geopotential height (gpm).
 *
 * Air quality comes as aerosol fields (product template 4.48): an aerosol type (Code Table 4.233,
 * 62000 total aerosol), particle diameters and optical wavelengths, each an interval of Code Table
 * 4.91. NCEP (GEFS-Aerosols) sends PM2.5 and PM10 as its local PMTF / PMTC (4.2-0-13-193 / 192,
 * already µg m⁻³) of total aerosol below 2.5 / 10 µm at the surface; the WMO way is mass density
 * (4.2-0-20-0, kg m⁻³) of those particles. Aerosol optical depth is 4.2-0-20-102 over the whole
 * atmosphere at the wavelengths of the interval (GEFS: 545-565 nm for 550 nm).
 *
 * Values are converted into the catalogue's base units (METRICS): K, Pa, m/s, mm/h, mm, %, m, J/kg,
 * µg/m³, and AOD as it is (dimensionless).
 */

import { LEVELS } from './levels.ts';
import { PRESSURE_LEVELS } from './overlays.ts';

/** How a field relates to time: a value at the step, a rate, or an amount since a start hour. */
export type FieldKind = 'instant' | 'rate' | 'accumulation';

export interface Quantization {
  /** value = offset + scale * q, q in 0..65534 (common/tile.ts). */
  offset: number;
  scale: number;
}

export interface Variable {
  ident: string;
  /** Tile file (RENDER_LAYERS[].file) and channel within it: wind is u (0) and v (1); '' for a static variable. */
  file: string;
  channel: number;
  channels: 1 | 2;
  /** METRICS key: the base unit the stored values are in. */
  metric: string;
  levels: readonly string[];
  /**
   * Fixed per variable, as the demo tiles do: steps far below what any unit shows and ranges
   * beyond any real value. The same q for the same value in every tile makes tiles gzip better.
   */
  quantization: Quantization;
  /** Held in the point-series store (one read per place for the point forecast); surface only. */
  point: boolean;
  /**
   * Constant through a run (the model's terrain height): one value per grid point, kept once in
   * the point store's static section (server/ingest/points.ts), never as tiles or per step.
   */
  static?: boolean;
  /**
   * Read only as an input of a derivation (server/ingest/derived, server/ingest/modelFields.ts):
   * decoded in the step, never written as tiles or point series (the wave direction and period that
   * become the particles' flow, NCEP's categorical precipitation flags, the pressure of a cloud top).
   */
  input?: boolean;
}

const WIND_LEVELS = ['surface', ...PRESSURE_LEVELS, '100m'];
const TEMP_LEVELS = ['surface', ...PRESSURE_LEVELS];
const SURFACE = ['surface'];

const variable = (ident: string, file: string, metric: string, quantization: Quantization, extra: Partial<Variable> = {}): Variable => ({
  ident, file, channel: 0, channels: 1, metric, levels: SURFACE, quantization, point: true, ...extra,
});

/** Inputs of derivations: never stored, so their quantization is never used. */
const input = (ident: string, metric: string): Variable => variable(ident, '', metric, { offset: 0, scale: 1 }, { point: false, input: true });

/**
 * Overlays straight from model fields (SPEC §3: deg0, gtco3, snowcover, ptype, cloudtop, cbase,
 * visibility, sst) and the inputs the ingest derives some of them from.
 */
const MODEL_FIELD_VARIABLES: Record<string, Variable> = {
  // Freezing level, m above mean sea level: -1000 .. 15 383 in 1/4 m.
  deg0: variable('deg0', 'deg0', 'altitude', { offset: -1000, scale: 1 / 4 }),
  // Total column ozone, Dobson units: 0 .. 1024 in 1/64 DU (the ozone hole is near 100, the spring Arctic 500).
  gtco3: variable('gtco3', 'gtco3', 'ozone', { offset: 0, scale: 1 / 64 }),
  // Snow depth (of the snow itself, not its water equivalent), cm: 0 .. 8192 in 1/8 cm.
  snowcover: variable('snowcover', 'snowcover', 'snow', { offset: 0, scale: 1 / 8 }),
  // SPEC §9 precipitation type code 0-11; no precipitation is no data.
  ptype: variable('ptype', 'ptype', 'ptype', { offset: 0, scale: 1 }),
  // Cloud top and cloud base, m above mean sea level: -1000 .. 31 767 in 1/2 m.
  cloudtop: variable('cloudtop', 'cloudtop', 'cloudHeight', { offset: -1000, scale: 1 / 2 }),
  cbase: variable('cbase', 'cbase', 'cloudHeight', { offset: -1000, scale: 1 / 2 }),
  // Visibility, m: 0 .. 65 534 in 1 m (GFS caps it at 24 135 m, ECMWF near 100 km: the top reads "more than 65 km").
  visibility: variable('visibility', 'visibility', 'visibility', { offset: 0, scale: 1 }),
  // Sea surface temperature, K, as temperature.
  sst: variable('sst', 'sst', 'temp', { offset: 150, scale: 1 / 64 }),
  ptype_rain: input('ptype_rain', 'ptype'),
  ptype_snow: input('ptype_snow', 'ptype'),
  ptype_freezing: input('ptype_freezing', 'ptype'),
  ptype_pellets: input('ptype_pellets', 'ptype'),
  ptype_wmo: input('ptype_wmo', 'ptype'),
  sst_skin: input('sst_skin', 'temp'),
  sst_land: input('sst_land', 'clouds'),
  sst_ice: input('sst_ice', 'clouds'),
  cloudtop_pressure: input('cloudtop_pressure', 'pressure'),
  cbase_pressure: input('cbase_pressure', 'pressure'),
  snow_swe: input('snow_swe', 'precip'),
  snow_density: input('snow_density', 'snow'),
  // Volumetric soil moisture, % (m³ of water per m³ of soil x 100): 0 .. 256 in 1/256.
  soilMoisture40: variable('soilMoisture40', 'soilMoisture40', 'soilMoisture', { offset: 0, scale: 1 / 256 }),
  soilMoisture100: variable('soilMoisture100', 'soilMoisture100', 'soilMoisture', { offset: 0, scale: 1 / 256 }),
  soilw_0_10: input('soilw_0_10', 'soilMoisture'),
  soilw_10_40: input('soilw_10_40', 'soilMoisture'),
  soilw_40_100: input('soilw_40_100', 'soilMoisture'),
};

/**
 * The wave families (SPEC §3 waves, wwaves, swell1-3): the height (the colour layer) and the flow
 * the particles follow, u and v of the direction the waves travel to times their deep-water group
 * velocity (server/ingest/modelFields.ts waveFlow), from the direction and period the model gives.
 */
export const WAVE_FAMILIES = ['waves', 'wwaves', 'swell1', 'swell2', 'swell3'] as const;
export type WaveFamily = (typeof WAVE_FAMILIES)[number];

const WAVE_VARIABLES: Record<string, Variable> = Object.fromEntries(WAVE_FAMILIES.flatMap((f) => [
  // m: 0 .. 128 in 1/512.
  [f, variable(f, f, 'waves', { offset: 0, scale: 1 / 512 })],
  // m/s: -32 .. 32 in 1/1024; a 25 s swell's group velocity is 19.5 m/s.
  [`${f}Flow_u`, variable(`${f}Flow_u`, `${f}Flow`, 'wind', { offset: -32, scale: 1 / 1024 }, { channels: 2 })],
  [`${f}Flow_v`, variable(`${f}Flow_v`, `${f}Flow`, 'wind', { offset: -32, scale: 1 / 1024 }, { channel: 1, channels: 2 })],
  [`${f}_dir`, input(`${f}_dir`, 'direction')],
  [`${f}_period`, input(`${f}_period`, 'period')],
]));

export const VARIABLES: Readonly<Record<string, Variable>> = {
  // m/s: -256 .. 768 in 1/64 (0.016 m/s, 0.03 kt); jet-stream winds stay inside.
  wind_u: variable('wind_u', 'wind', 'wind', { offset: -256, scale: 1 / 64 }, { channels: 2, levels: WIND_LEVELS }),
  wind_v: variable('wind_v', 'wind', 'wind', { offset: -256, scale: 1 / 64 }, { channel: 1, channels: 2, levels: WIND_LEVELS }),
  gust: variable('gust', 'gust', 'wind', { offset: 0, scale: 1 / 64 }),
  // K: 150 .. 662 K in 1/64 K; 10 hPa is never below 160 K.
  temp: variable('temp', 'temp', 'temp', { offset: 150, scale: 1 / 64 }, { levels: TEMP_LEVELS }),
  dewpoint: variable('dewpoint', 'dewpoint', 'temp', { offset: 150, scale: 1 / 64 }),
  // %: 0 .. 1024 in 1/64; on pressure levels too (the soundings' humidity, the icing input).
  rh: variable('rh', 'rh', 'humidity', { offset: 0, scale: 1 / 64 }, { levels: TEMP_LEVELS }),
  // Pa: 800 .. 1455 hPa in 0.01 hPa.
  pressure: variable('pressure', 'pressure', 'pressure', { offset: 80_000, scale: 1 }),
  // mm/h: 0 .. 128 in 1/512.
  rain: variable('rain', 'rain', 'rain', { offset: 0, scale: 1 / 512 }),
  // mm since the run's reference time: 0 .. 2048 in 1/32.
  rainAccu: variable('rainAccu', 'rainAccu', 'precip', { offset: 0, scale: 1 / 32 }),
  // mm of water equivalent of the snow on the ground (kg m⁻²): 0 .. 4096 in 1/16. Tiles only: the
  // snowAccu overlay is its gain over a range (common/catalogue/accumulations.ts).
  snowWe: variable('snowWe', 'snowWe', 'precip', { offset: 0, scale: 1 / 16 }, { point: false }),
  clouds: variable('clouds', 'clouds', 'clouds', { offset: 0, scale: 1 / 64 }),
  lclouds: variable('lclouds', 'lclouds', 'clouds', { offset: 0, scale: 1 / 64 }),
  mclouds: variable('mclouds', 'mclouds', 'clouds', { offset: 0, scale: 1 / 64 }),
  hclouds: variable('hclouds', 'hclouds', 'clouds', { offset: 0, scale: 1 / 64 }),
  // J/kg: 0 .. 32 767 in 0.5.
  cape: variable('cape', 'cape', 'cape', { offset: 0, scale: 0.5 }),
  // gpm: -1000 .. 64 534 in 1 m (10 hPa reaches 32 km).
  gh: variable('gh', 'gh', 'altitude', { offset: -1000, scale: 1 }, { levels: PRESSURE_LEVELS, point: false }),
  // µg/m³: PM2.5 0 .. 4096 in 1/16, PM10 (dust storms pass 1000) 0 .. 8192 in 1/8.
  pm2p5: variable('pm2p5', 'pm2p5', 'pm', { offset: 0, scale: 1 / 16 }),
  pm10: variable('pm10', 'pm10', 'pm', { offset: 0, scale: 1 / 8 }),
  ...MODEL_FIELD_VARIABLES,
  ...WAVE_VARIABLES,
  // Aerosol optical depth at 550 nm (dimensionless): 0 .. 8 in 1/8192.
  aod550: variable('aod550', 'aod550', 'aod', { offset: 0, scale: 1 / 8192 }),
  // The model's terrain height (orography), m above mean sea level: -1000 .. 15 383 in 1/4 m. The
  // Dead Sea shore is -430 m; spectral models ring below 0 over the sea (GFS: -75 m). No tiles.
  elevation: variable('elevation', '', 'altitude', { offset: -1000, scale: 1 / 4 }, { point: false, static: true }),
  // ---- Derived fields and their inputs (server/ingest/derived; the derive step of runBuilder.ts). ----
  // Inputs only: convective precipitation rate (mm/h), surface pressure (Pa), global horizontal
  // irradiance (W/m²).
  convRain: variable('convRain', '', 'rain', { offset: 0, scale: 1 / 512 }, { point: false, input: true }),
  surfacePressure: variable('surfacePressure', '', 'pressure', { offset: 30_000, scale: 2 }, { point: false, input: true }),
  ghi: variable('ghi', '', 'irradiance', { offset: 0, scale: 1 / 32 }, { point: false, input: true }),
  // K, as temp.
  wetbulbtemp: variable('wetbulbtemp', 'wetbulbtemp', 'temp', { offset: 150, scale: 1 / 64 }),
  // SPEC §9 fog value 0 .. 2 in 1/4096.
  fog: variable('fog', 'fog', 'fog', { offset: 0, scale: 1 / 4096 }),
  // CAPE x P, W/m²: 0 .. 64 in 1/1024.
  thunder: variable('thunder', 'thunder', 'thunder', { offset: 0, scale: 1 / 1024 }),
  // % of rated power: 0 .. 256 in 1/256.
  solarpower: variable('solarpower', 'solarpower', 'solarpower', { offset: 0, scale: 1 / 256 }),
  // m above ground: 0 .. 16 383 in 1/4 m.
  ccl: variable('ccl', 'ccl', 'altitude', { offset: 0, scale: 1 / 4 }),
  // % of dry weight: 0 .. 256 in 1/256.
  dfm10h: variable('dfm10h', 'dfm10h', 'fuelMoisture', { offset: 0, scale: 1 / 256 }),
  // FWI: 0 .. 1024 in 1/64.
  fwi: variable('fwi', 'fwi', 'fwi', { offset: 0, scale: 1 / 64 }),
  // EEA index level 1-6.
  aqi: variable('aqi', 'aqi', 'aqi', { offset: 0, scale: 1 / 64 }),
  // µg/m³: dust (PM10 of dust aerosol) 0 .. 8192 in 1/8; NO2, O3 0 .. 4096 in 1/16; CO 0 .. 16 383 in 1/4.
  dustsm: variable('dustsm', 'dustsm', 'pm', { offset: 0, scale: 1 / 8 }),
  no2: variable('no2', 'no2', 'pm', { offset: 0, scale: 1 / 16 }),
  go3: variable('go3', 'go3', 'pm', { offset: 0, scale: 1 / 16 }),
  cosc: variable('cosc', 'cosc', 'pm', { offset: 0, scale: 1 / 4 }),
  // Total column SO2, DU: 0 .. 64 in 1/1024.
  tcso2: variable('tcso2', 'tcso2', 'column', { offset: 0, scale: 1 / 1024 }),
  // TI1 (1e-7 s⁻²) of the layer from each pressure level to the next above: 0 .. 256 in 1/256.
  turbulence: variable('turbulence', 'turbulence', 'turbulence', { offset: 0, scale: 1 / 256 }, { levels: PRESSURE_LEVELS, point: false }),
  // Icing potential, % (0 or 100).
  icing: variable('icing', 'icing', 'humidity', { offset: 0, scale: 1 / 64 }, { levels: PRESSURE_LEVELS, point: false }),
};

/** Variables of each tile file, in channel order (run-constant variables have no tile file). */
export const FILE_VARIABLES: Readonly<Record<string, readonly Variable[]>> = Object.values(VARIABLES).reduce<Record<string, Variable[]>>((files, v) => {
  if (!v.static && !v.input) (files[v.file] ??= [])[v.channel] = v;
  return files;
}, {});

/** The run-constant variables (point store static section). */
export const STATIC_VARIABLES: readonly Variable[] = Object.values(VARIABLES).filter((v) => v.static);

/** What the decoder tells about a field (engine/grib inventory), the part that identifies it. */
export interface GribIdentity {
  /** ecCodes centre abbreviation: kwbc (NCEP), ecmf (ECMWF), edzw (DWD), ... */
  centre: string;
  discipline: number;
  parameterCategory: number;
  parameterNumber: number;
  /** ecCodes level type name: surface, heightAboveGround, isobaricInhPa, meanSea, lowCloudLayer, ... */
  typeOfLevel: string;
  level: number;
  /** Code table 4.10: 0 average, 1 accumulation, 2 maximum, 3 minimum; absent = instantaneous. */
  statisticalProcessing?: number;
  /** Templates 4.40-4.48: Code Table 4.230 constituent / 4.233 aerosol type (62000 total aerosol). */
  constituentType?: number;
  /** Template 4.48: particle diameters and wavelengths, metres (Code Table 4.91 interval types). */
  sizeInterval?: GribInterval;
  wavelengthInterval?: GribInterval;
  /**
   * The fixed surfaces' values in their Code Table 4.5 unit (m below ground for soil layers):
   * scaledValue / 10^scaleFactor, NaN when missing. ecCodes' level / topLevel / bottomLevel round
   * them to whole metres (0, 0, 0, 1 for the tops of GFS's 0-10, 10-40, 40-100, 100-200 cm layers).
   */
  firstSurfaceValue?: number;
  secondSurfaceValue?: number;
}

/**
 * Code Table 4.91 interval: 0 smaller than `first`, 5 up to `first`, 4 smaller than `second`,
 * 9 up to `second`, 2 / 7 / 10 between the two, 11 equal to `first`.
 */
export interface GribInterval {
  type: number;
  /** Limits in metres, NaN when missing. */
  first: number;
  second: number;
}

export interface GribRule {
  /** Who sends it this way, for people reading the table. */
  note: string;
  discipline: number;
  category: number;
  number: number;
  levelTypes: readonly string[];
  /** Required level value (2 for 2 m temperature); absent = any value. */
  level?: number;
  /** Only from these centres; absent = any. */
  centres?: readonly string[];
  /** Allowed statistical processing; `null` = instantaneous; absent = any. */
  statistics?: readonly (number | null)[];
  /** Only fields of these constituent / aerosol types (Code Tables 4.230, 4.233); absent = any. */
  constituents?: readonly number[];
  /** Only aerosol fields of particles below this diameter (m): a size interval with this upper limit. */
  particlesBelow?: number;
  /** Only fields whose wavelength interval holds this wavelength (m). */
  wavelength?: number;
  /** Only the layer between these fixed surfaces (their values, e.g. m below ground: [0.1, 0.4]). */
  layer?: readonly [number, number];
  variable: string;
  /** Catalogue level: an ident, or 'pressure' to take it from the field's pressure level. */
  target: string;
  kind: FieldKind;
  /** base = value * factor + add. */
  factor?: number;
  add?: number;
  /** When several fields give a variable at one level and step, the highest priority wins. */
  priority: number;
}

const HEIGHT = ['heightAboveGround'];
/** Code Table 4.233: total aerosol. */
const TOTAL_AEROSOL = 62000;
/** Code Table 4.230: PM10 and PM2.5 as constituents of their own. */
const PM10_CONSTITUENT = 40008;
const PM2P5_CONSTITUENT = 40009;
const UG_PER_KG = 1e9;
/** Code Table 4.233: dust dry. Code Table 4.230: ozone 0, carbon monoxide 4, nitrogen dioxide 5, sulphur dioxide 8. */
const DUST_AEROSOL = 62001;
const O3_CONSTITUENT = 0;
const CO_CONSTITUENT = 4;
const NO2_CONSTITUENT = 5;
const SO2_CONSTITUENT = 8;
/**
 * One Dobson unit is 2.6867e20 molecules per m²; SO2 is 64.066 g/mol (Avogadro 6.02214e23): 1 DU of
 * SO2 = 2.8582e-5 kg/m².
 */
const DU_PER_KG_M2_SO2 = 6.02214e23 / (2.6867e20 * 64.066e-3);
const ISOBARIC = ['isobaricInhPa', 'isobaricInPa'];
// WMO Manual on Codes: standard gravity, geopotential (m² s⁻²) / g0 = geopotential height (gpm).
const STANDARD_GRAVITY = 9.80665;
const HOUR_S = 3600;


/**
 * Wave families, WMO Code Table 4.2-10-0 (ecCodes shortName in each note). Directions (4, 7, 10,
 * 14) are where the waves come FROM, degrees clockwise from true north, as the meteorological
 * convention has it; the particles turn them round (server/ingest/modelFields.ts waveFlow).
 * GFS-Wave (WAVEWATCH III) sends the primary wave direction and period beside the combined height
 * and its swell partitions on level type 241 (ecCodes `orderedSequenceData`, levels 1..3);
 * ECMWF's WAM sends the mean direction and period of the combined sea and its total swell.
 */
const SEQUENCE = ['orderedSequenceData'];
const WAVE_RULES: readonly GribRule[] = [
  { note: 'ECMWF mwd (mean direction of combined wind waves and swell, from)', discipline: 10, category: 0, number: 14, levelTypes: ['surface', 'meanSea'], variable: 'waves_dir', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP DIRPW (ecCodes dirpw: primary wave direction, from)', discipline: 10, category: 0, number: 10, levelTypes: ['surface', 'meanSea'], variable: 'waves_dir', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'ECMWF mwp (mean period of combined wind waves and swell, s)', discipline: 10, category: 0, number: 15, levelTypes: ['surface', 'meanSea'], variable: 'waves_period', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP PERPW (ecCodes perpw: primary wave mean period, s)', discipline: 10, category: 0, number: 11, levelTypes: ['surface', 'meanSea'], variable: 'waves_period', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'NCEP WVHGT / ECMWF shww (significant height of wind waves, m)', discipline: 10, category: 0, number: 5, levelTypes: ['surface', 'meanSea'], variable: 'wwaves', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP WVDIR / ECMWF mdww (direction of wind waves, from)', discipline: 10, category: 0, number: 4, levelTypes: ['surface', 'meanSea'], variable: 'wwaves_dir', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP WVPER / ECMWF mpww (mean period of wind waves, s)', discipline: 10, category: 0, number: 6, levelTypes: ['surface', 'meanSea'], variable: 'wwaves_period', target: 'surface', kind: 'instant', priority: 2 },
  ...[1, 2, 3].flatMap((n): GribRule[] => [
    { note: `NCEP SWELL (ecCodes swell) partition ${n} (significant height of swell waves, m)`, discipline: 10, category: 0, number: 8, levelTypes: SEQUENCE, level: n, variable: `swell${n}`, target: 'surface', kind: 'instant', priority: 2 },
    { note: `NCEP SWDIR (ecCodes swdir) partition ${n} (direction of swell waves, from)`, discipline: 10, category: 0, number: 7, levelTypes: SEQUENCE, level: n, variable: `swell${n}_dir`, target: 'surface', kind: 'instant', priority: 2 },
    { note: `NCEP SWPER (ecCodes swper) partition ${n} (mean period of swell waves, s)`, discipline: 10, category: 0, number: 9, levelTypes: SEQUENCE, level: n, variable: `swell${n}_period`, target: 'surface', kind: 'instant', priority: 2 },
  ]),
  // ECMWF's WAM has no swell partitions in its surface fields: its total swell is shown as the first swell.
  { note: 'ECMWF shts (significant height of total swell, m)', discipline: 10, category: 0, number: 8, levelTypes: ['surface', 'meanSea'], variable: 'swell1', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'ECMWF mdts (mean direction of total swell, from)', discipline: 10, category: 0, number: 7, levelTypes: ['surface', 'meanSea'], variable: 'swell1_dir', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'ECMWF mpts (mean period of total swell, s)', discipline: 10, category: 0, number: 9, levelTypes: ['surface', 'meanSea'], variable: 'swell1_period', target: 'surface', kind: 'instant', priority: 1 },
];

/**
 * One Dobson unit is 2.6867e20 ozone molecules per m² (WMO); at 47.9982 g/mol and Avogadro's
 * 6.02214e23 /mol that is 2.1415e-5 kg m⁻².
 */
export const KG_PER_M2_PER_DOBSON = 2.1415e-5;
/** Code Table 4.230: ozone. */
const OZONE_CONSTITUENT = 0;
const PERCENT = 100;

/**
 * Overlays straight from model fields. What each model gives:
 * - deg0: NCEP HGT at the 0 °C isotherm (gpm above sea level). ECMWF's deg0l is height above the
 *   ground, another datum: not mapped.
 * - gtco3: NCEP TOZNE (Dobson units); ECMWF/CAMS gtco3 as column mass density of ozone (template
 *   4.40, kg m⁻²) / 2.1415e-5.
 * - snowcover: snow depth. NCEP SNOD (ecCodes sde, m of snow) x 100; ECMWF sd is water equivalent
 *   (kg m⁻²): the depth is sd / rsn (snow density, kg m⁻³) where both come. NCEP's WEASD (sdwe)
 *   has no density beside it: not used.
 * - ptype: NCEP's categorical CRAIN / CSNOW / CFRZR / CICEP (local 0-1-192..195, WMO 0-1-33..36)
 *   and ECMWF ptype (Code Table 4.201), both turned into SPEC §9 codes (modelFields.ts).
 * - cloudtop, cbase: NCEP PRES at the convective cloud top / bottom as ICAO standard-atmosphere
 *   pressure altitude (modelFields.ts), and for the base NCEP HGT at the cloud ceiling (GFS 0.25°
 *   files, gpm). ECMWF's cbh is above the ground, another datum: not mapped.
 * - visibility: NCEP VIS and ECMWF vis at the surface (m).
 * - sst: ECMWF sst (water temperature at the surface, masked over land); for NCEP, TMP at the
 *   surface where LAND says water and ICEC no ice (GFS keeps its SST analysis there).
 * - soilMoisture40, soilMoisture100: NCEP SOILW (ecCodes soilw, volumetric soil moisture, m³/m³,
 *   as %) of the Noah land model's layers 0-10, 10-40 and 40-100 cm below ground (depthBelowLandLayer;
 *   the layer is told by the fixed surfaces' values, GribRule.layer). 0-40 cm is the layers'
 *   thickness-weighted mean (modelFields.ts). ECMWF's swvl layers (0-7, 7-28, 28-100 cm) are other
 *   depths: not mapped.
 */
/** The Noah land model's soil layers in GFS files (m below ground, top and bottom), by input variable. */
export const NOAH_SOIL_LAYERS = { soilw_0_10: [0, 0.1], soilw_10_40: [0.1, 0.4], soilw_40_100: [0.4, 1] } as const satisfies Record<string, readonly [number, number]>;

const MODEL_FIELD_RULES: readonly GribRule[] = [
  { note: 'NCEP HGT at the 0 °C isotherm (ecCodes gh, isothermZero)', discipline: 0, category: 3, number: 5, levelTypes: ['isothermZero'], variable: 'deg0', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP TOZNE (ecCodes tozne, Dobson units)', discipline: 0, category: 14, number: 0, levelTypes: ['atmosphereSingleLayer', 'entireAtmosphere', 'atmosphere'], variable: 'gtco3', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF/CAMS gtco3 (ozone column mass density, kg/m²)', discipline: 0, category: 20, number: 1, levelTypes: ['atmosphereSingleLayer', 'entireAtmosphere', 'atmosphere', 'surface'], constituents: [OZONE_CONSTITUENT], variable: 'gtco3', target: 'surface', kind: 'instant', factor: 1 / KG_PER_M2_PER_DOBSON, priority: 2 },
  { note: 'NCEP SNOD / ECMWF sde (ecCodes sde, snow depth, m)', discipline: 0, category: 1, number: 11, levelTypes: ['surface'], variable: 'snowcover', target: 'surface', kind: 'instant', factor: 100, priority: 2 },
  { note: 'ECMWF sd (snow depth water equivalent, kg/m²)', discipline: 0, category: 1, number: 60, levelTypes: ['surface'], variable: 'snow_swe', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF rsn (snow density, kg/m³)', discipline: 0, category: 1, number: 61, levelTypes: ['surface'], variable: 'snow_density', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP CRAIN (ecCodes crain, categorical rain)', discipline: 0, category: 1, number: 192, levelTypes: ['surface'], centres: ['kwbc'], variable: 'ptype_rain', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP CFRZR (ecCodes cfrzr, categorical freezing rain)', discipline: 0, category: 1, number: 193, levelTypes: ['surface'], centres: ['kwbc'], variable: 'ptype_freezing', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP CICEP (ecCodes cicep, categorical ice pellets)', discipline: 0, category: 1, number: 194, levelTypes: ['surface'], centres: ['kwbc'], variable: 'ptype_pellets', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP CSNOW (ecCodes csnow, categorical snow)', discipline: 0, category: 1, number: 195, levelTypes: ['surface'], centres: ['kwbc'], variable: 'ptype_snow', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'WMO categorical rain (0-1-33)', discipline: 0, category: 1, number: 33, levelTypes: ['surface'], variable: 'ptype_rain', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'WMO categorical freezing rain (0-1-34)', discipline: 0, category: 1, number: 34, levelTypes: ['surface'], variable: 'ptype_freezing', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'WMO categorical ice pellets (0-1-35)', discipline: 0, category: 1, number: 35, levelTypes: ['surface'], variable: 'ptype_pellets', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'WMO categorical snow (0-1-36)', discipline: 0, category: 1, number: 36, levelTypes: ['surface'], variable: 'ptype_snow', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'ECMWF ptype (precipitation type, Code Table 4.201)', discipline: 0, category: 1, number: 19, levelTypes: ['surface'], variable: 'ptype_wmo', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP PRES at the convective cloud top (ecCodes pres, convectiveCloudTop)', discipline: 0, category: 3, number: 0, levelTypes: ['convectiveCloudTop', 'cloudTop'], variable: 'cloudtop_pressure', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP PRES at the convective cloud bottom (ecCodes pres, convectiveCloudBottom)', discipline: 0, category: 3, number: 0, levelTypes: ['convectiveCloudBottom', 'cloudBase'], variable: 'cbase_pressure', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'NCEP HGT at the cloud ceiling (ecCodes gh, cloudCeiling; GFS 0.25°)', discipline: 0, category: 3, number: 5, levelTypes: ['cloudCeiling'], variable: 'cbase', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP VIS / ECMWF vis (ecCodes vis, m)', discipline: 0, category: 19, number: 0, levelTypes: ['surface', 'heightAboveGround'], variable: 'visibility', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF sst (water temperature at the surface, K)', discipline: 10, category: 3, number: 0, levelTypes: ['surface'], variable: 'sst', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP TMP at the surface (ecCodes t; the SST analysis over open water)', discipline: 0, category: 0, number: 0, levelTypes: ['surface'], statistics: [null], variable: 'sst_skin', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP LAND / ECMWF lsm (ecCodes lsm, land fraction 0..1, as %)', discipline: 2, category: 0, number: 0, levelTypes: ['surface'], variable: 'sst_land', target: 'surface', kind: 'instant', factor: PERCENT, priority: 2 },
  { note: 'NCEP SOILW 0-10 cm (ecCodes soilw, m³/m³, as %)', discipline: 2, category: 0, number: 192, levelTypes: ['depthBelowLandLayer'], centres: ['kwbc'], layer: NOAH_SOIL_LAYERS.soilw_0_10, variable: 'soilw_0_10', target: 'surface', kind: 'instant', factor: PERCENT, priority: 2 },
  { note: 'NCEP SOILW 10-40 cm (ecCodes soilw, m³/m³, as %)', discipline: 2, category: 0, number: 192, levelTypes: ['depthBelowLandLayer'], centres: ['kwbc'], layer: NOAH_SOIL_LAYERS.soilw_10_40, variable: 'soilw_10_40', target: 'surface', kind: 'instant', factor: PERCENT, priority: 2 },
  { note: 'NCEP SOILW 40-100 cm (ecCodes soilw, m³/m³, as %)', discipline: 2, category: 0, number: 192, levelTypes: ['depthBelowLandLayer'], centres: ['kwbc'], layer: NOAH_SOIL_LAYERS.soilw_40_100, variable: 'soilw_40_100', target: 'surface', kind: 'instant', factor: PERCENT, priority: 2 },
  { note: 'NCEP ICEC / ECMWF ci (ecCodes ci, sea-ice fraction 0..1, as %)', discipline: 10, category: 2, number: 0, levelTypes: ['surface'], variable: 'sst_ice', target: 'surface', kind: 'instant', factor: PERCENT, priority: 2 },
];

export const GRIB_RULES: readonly GribRule[] = [
  // Wind 10 m (NCEP UGRD/VGRD, ECMWF 10u/10v, DWD U_10M/V_10M) and 100 m.
  { note: '10 m u wind', discipline: 0, category: 2, number: 2, levelTypes: HEIGHT, level: 10, variable: 'wind_u', target: 'surface', kind: 'instant', priority: 2 },
  { note: '10 m v wind', discipline: 0, category: 2, number: 3, levelTypes: HEIGHT, level: 10, variable: 'wind_v', target: 'surface', kind: 'instant', priority: 2 },
  { note: '100 m u wind', discipline: 0, category: 2, number: 2, levelTypes: HEIGHT, level: 100, variable: 'wind_u', target: '100m', kind: 'instant', priority: 2 },
  { note: '100 m v wind', discipline: 0, category: 2, number: 3, levelTypes: HEIGHT, level: 100, variable: 'wind_v', target: '100m', kind: 'instant', priority: 2 },
  { note: 'u wind on pressure levels', discipline: 0, category: 2, number: 2, levelTypes: ISOBARIC, variable: 'wind_u', target: 'pressure', kind: 'instant', priority: 2 },
  { note: 'v wind on pressure levels', discipline: 0, category: 2, number: 3, levelTypes: ISOBARIC, variable: 'wind_v', target: 'pressure', kind: 'instant', priority: 2 },
  // Gust: NCEP GUST at the surface (instantaneous); ECMWF 10fg and DWD VMAX_10M at 10 m, maximum since the last post-processing.
  { note: 'NCEP surface gust', discipline: 0, category: 2, number: 22, levelTypes: ['surface'], variable: 'gust', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF 10fg / DWD VMAX_10M', discipline: 0, category: 2, number: 22, levelTypes: HEIGHT, level: 10, variable: 'gust', target: 'surface', kind: 'instant', priority: 1 },
  // Temperature: 2 m, pressure levels.
  { note: '2 m temperature', discipline: 0, category: 0, number: 0, levelTypes: HEIGHT, level: 2, statistics: [null], variable: 'temp', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'temperature on pressure levels', discipline: 0, category: 0, number: 0, levelTypes: ISOBARIC, statistics: [null], variable: 'temp', target: 'pressure', kind: 'instant', priority: 2 },
  { note: '2 m dew point', discipline: 0, category: 0, number: 6, levelTypes: HEIGHT, level: 2, statistics: [null], variable: 'dewpoint', target: 'surface', kind: 'instant', priority: 2 },
  { note: '2 m relative humidity', discipline: 0, category: 1, number: 1, levelTypes: HEIGHT, level: 2, statistics: [null], variable: 'rh', target: 'surface', kind: 'instant', priority: 2 },
  // Mean sea-level pressure: NCEP PRMSL and DWD PMSL are 3-1; ECMWF msl is 3-0 at mean sea level; NCEP MSLET (3-192, Eta reduction) only as a fallback.
  { note: 'NCEP PRMSL / DWD PMSL', discipline: 0, category: 3, number: 1, levelTypes: ['meanSea'], variable: 'pressure', target: 'surface', kind: 'instant', priority: 3 },
  { note: 'ECMWF msl', discipline: 0, category: 3, number: 0, levelTypes: ['meanSea'], variable: 'pressure', target: 'surface', kind: 'instant', priority: 3 },
  { note: 'NCEP MSLET', discipline: 0, category: 3, number: 192, levelTypes: ['meanSea'], centres: ['kwbc'], variable: 'pressure', target: 'surface', kind: 'instant', priority: 1 },
  // Geopotential height on pressure levels: NCEP HGT (gpm); ECMWF z (m² s⁻²).
  { note: 'geopotential height', discipline: 0, category: 3, number: 5, levelTypes: ISOBARIC, variable: 'gh', target: 'pressure', kind: 'instant', priority: 2 },
  { note: 'ECMWF geopotential', discipline: 0, category: 3, number: 4, levelTypes: ISOBARIC, variable: 'gh', target: 'pressure', kind: 'instant', factor: 1 / STANDARD_GRAVITY, priority: 1 },
  // The model's terrain height: NCEP HGT (gpm) and DWD HSURF (geometric height, m) at the
  // surface; ECMWF surface geopotential z (m² s⁻²) / g0. Constant through a run (Variable.static).
  { note: 'NCEP HGT at the surface (orography)', discipline: 0, category: 3, number: 5, levelTypes: ['surface'], variable: 'elevation', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'DWD HSURF (geometric height of the surface)', discipline: 0, category: 3, number: 6, levelTypes: ['surface'], variable: 'elevation', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF z at the surface (surface geopotential)', discipline: 0, category: 3, number: 4, levelTypes: ['surface'], variable: 'elevation', target: 'surface', kind: 'instant', factor: 1 / STANDARD_GRAVITY, priority: 2 },
  // Precipitation. Amounts (kg m⁻² = mm) become rates between steps in the ingest; rates (kg m⁻² s⁻¹) are mm/h * 1/3600.
  { note: 'total precipitation (NCEP APCP, WMO 1-8)', discipline: 0, category: 1, number: 8, levelTypes: ['surface'], statistics: [1], variable: 'rain', target: 'surface', kind: 'accumulation', priority: 3 },
  { note: 'ECMWF tp (metres)', discipline: 0, category: 1, number: 193, levelTypes: ['surface'], centres: ['ecmf'], variable: 'rain', target: 'surface', kind: 'accumulation', factor: 1000, priority: 3 },
  { note: 'DWD TOT_PREC (accumulated rate)', discipline: 0, category: 1, number: 52, levelTypes: ['surface'], statistics: [1], variable: 'rain', target: 'surface', kind: 'accumulation', priority: 3 },
  { note: 'ECMWF tprate (total precipitation rate)', discipline: 0, category: 1, number: 52, levelTypes: ['surface'], statistics: [null, 0], variable: 'rain', target: 'surface', kind: 'rate', factor: HOUR_S, priority: 2 },
  { note: 'NCEP PRATE (precipitation rate)', discipline: 0, category: 1, number: 7, levelTypes: ['surface'], statistics: [null, 0], variable: 'rain', target: 'surface', kind: 'rate', factor: HOUR_S, priority: 2 },
  // Snow on the ground as water equivalent (kg m⁻² = mm) for snowAccu: NCEP WEASD (WMO 1-13, water
  // equivalent of accumulated snow depth). The WMO 1-60 (ECMWF sd, DWD W_SNOW) is snow_swe, an input
  // of snowcover: not mapped here too.
  { note: 'NCEP WEASD', discipline: 0, category: 1, number: 13, levelTypes: ['surface'], statistics: [null], variable: 'snowWe', target: 'surface', kind: 'instant', priority: 2 },
  // Cloud cover (%).
  { note: 'NCEP TCDC entire atmosphere', discipline: 0, category: 6, number: 1, levelTypes: ['atmosphere', 'atmosphereSingleLayer', 'entireAtmosphere'], variable: 'clouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF tcc / DWD CLCT', discipline: 0, category: 6, number: 1, levelTypes: ['surface'], variable: 'clouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP TCDC low cloud layer', discipline: 0, category: 6, number: 1, levelTypes: ['lowCloudLayer'], variable: 'lclouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP TCDC middle cloud layer', discipline: 0, category: 6, number: 1, levelTypes: ['middleCloudLayer'], variable: 'mclouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP TCDC high cloud layer', discipline: 0, category: 6, number: 1, levelTypes: ['highCloudLayer'], variable: 'hclouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF lcc (WMO low cloud cover)', discipline: 0, category: 6, number: 3, levelTypes: ['surface', 'lowCloudLayer'], variable: 'lclouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF mcc (WMO medium cloud cover)', discipline: 0, category: 6, number: 4, levelTypes: ['surface', 'middleCloudLayer'], variable: 'mclouds', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'ECMWF hcc (WMO high cloud cover)', discipline: 0, category: 6, number: 5, levelTypes: ['surface', 'highCloudLayer'], variable: 'hclouds', target: 'surface', kind: 'instant', priority: 2 },
  // DWD CLCL / CLCM / CLCH: cloud cover (6-22) in the layers surface-800, 800-400, 400-0 hPa (ecCodes level: the top, hPa).
  { note: 'DWD CLCL', discipline: 0, category: 6, number: 22, levelTypes: ['isobaricLayer'], level: 800, centres: ['edzw'], variable: 'lclouds', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'DWD CLCM', discipline: 0, category: 6, number: 22, levelTypes: ['isobaricLayer'], level: 400, centres: ['edzw'], variable: 'mclouds', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'DWD CLCH', discipline: 0, category: 6, number: 22, levelTypes: ['isobaricLayer'], level: 0, centres: ['edzw'], variable: 'hclouds', target: 'surface', kind: 'instant', priority: 1 },
  // CAPE: surface-based first, then mixed-layer / most-unstable parcels, then NCEP's pressure layers above ground.
  { note: 'surface-based CAPE', discipline: 0, category: 7, number: 6, levelTypes: ['surface'], variable: 'cape', target: 'surface', kind: 'instant', priority: 3 },
  { note: 'mixed-layer / most-unstable CAPE', discipline: 0, category: 7, number: 6, levelTypes: ['mixedLayerParcel', 'mostUnstableParcel', 'entireAtmosphere'], variable: 'cape', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP CAPE 255-0 / 180-0 hPa above ground', discipline: 0, category: 7, number: 6, levelTypes: ['pressureFromGroundLayer'], variable: 'cape', target: 'surface', kind: 'instant', priority: 1 },
  // Significant height of combined wind waves and swell (NCEP WAVEWATCH III HTSGW, ECMWF WAM swh).
  { note: 'significant wave height', discipline: 10, category: 0, number: 3, levelTypes: ['surface', 'meanSea'], variable: 'waves', target: 'surface', kind: 'instant', priority: 2 },
  ...WAVE_RULES,
  ...MODEL_FIELD_RULES,
  // Particulate matter at the surface (µg/m³). Dust-only or sea-salt-only PM (other aerosol types) is not the air's PM.
  { note: 'NCEP PMTF (GEFS-Aerosols PM2.5, µg/m³)', discipline: 0, category: 13, number: 193, levelTypes: ['surface'], centres: ['kwbc'], constituents: [TOTAL_AEROSOL], particlesBelow: 2.5e-6, variable: 'pm2p5', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP PMTC (GEFS-Aerosols PM10, µg/m³)', discipline: 0, category: 13, number: 192, levelTypes: ['surface'], centres: ['kwbc'], constituents: [TOTAL_AEROSOL], particlesBelow: 1e-5, variable: 'pm10', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'WMO mass density of aerosol below 2.5 µm (kg/m³)', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [TOTAL_AEROSOL], particlesBelow: 2.5e-6, variable: 'pm2p5', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  { note: 'WMO mass density of aerosol below 10 µm (kg/m³)', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [TOTAL_AEROSOL], particlesBelow: 1e-5, variable: 'pm10', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  { note: 'WMO mass density of PM2.5 (constituent 40009, kg/m³)', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [PM2P5_CONSTITUENT], variable: 'pm2p5', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  { note: 'WMO mass density of PM10 (constituent 40008, kg/m³)', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [PM10_CONSTITUENT], variable: 'pm10', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  // Total aerosol optical depth at 550 nm (GEFS-Aerosols AOTK over 545-565 nm).
  { note: 'aerosol optical depth at 550 nm', discipline: 0, category: 20, number: 102, levelTypes: ['atmosphere', 'entireAtmosphere', 'surface'], constituents: [TOTAL_AEROSOL], wavelength: 5.5e-7, variable: 'aod550', target: 'surface', kind: 'instant', priority: 2 },
  // ---- Inputs of derived fields and air quality (server/ingest/derived). ----
  { note: 'NCEP CPRAT (convective precipitation rate, kg m⁻² s⁻¹)', discipline: 0, category: 1, number: 196, levelTypes: ['surface'], centres: ['kwbc'], statistics: [null, 0], variable: 'convRain', target: 'surface', kind: 'rate', factor: HOUR_S, priority: 2 },
  { note: 'surface pressure (NCEP PRES, ECMWF sp)', discipline: 0, category: 3, number: 0, levelTypes: ['surface'], variable: 'surfacePressure', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'NCEP DSWRF (downward short-wave flux at the surface, average)', discipline: 0, category: 4, number: 192, levelTypes: ['surface'], centres: ['kwbc'], statistics: [null, 0], variable: 'ghi', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'WMO downward short-wave radiation flux (instantaneous or average)', discipline: 0, category: 4, number: 7, levelTypes: ['surface'], statistics: [null, 0], variable: 'ghi', target: 'surface', kind: 'instant', priority: 1 },
  { note: 'relative humidity on pressure levels', discipline: 0, category: 1, number: 1, levelTypes: ISOBARIC, statistics: [null], variable: 'rh', target: 'pressure', kind: 'instant', priority: 2 },
  // Dust near the ground: GEFS-Aerosols PMTC of dust aerosol (Code Table 4.233 62001) below 10 µm, µg/m³; the WMO way is mass density (kg/m³).
  { note: 'NCEP PMTC of dust (GEFS-Aerosols, µg/m³)', discipline: 0, category: 13, number: 192, levelTypes: ['surface'], centres: ['kwbc'], constituents: [DUST_AEROSOL], particlesBelow: 1e-5, variable: 'dustsm', target: 'surface', kind: 'instant', priority: 2 },
  { note: 'WMO mass density of dust (kg/m³)', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [DUST_AEROSOL], variable: 'dustsm', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 1 },
  // CAMS (ECMWF, template 4.40, Code Table 4.230 constituents): mass density at the surface (kg/m³ -> µg/m³) and the SO2 column (kg/m² -> DU).
  { note: 'CAMS NO2 mass density at the surface', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [NO2_CONSTITUENT], variable: 'no2', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  { note: 'CAMS O3 mass density at the surface', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [O3_CONSTITUENT], variable: 'go3', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  { note: 'CAMS CO mass density at the surface', discipline: 0, category: 20, number: 0, levelTypes: ['surface'], constituents: [CO_CONSTITUENT], variable: 'cosc', target: 'surface', kind: 'instant', factor: UG_PER_KG, priority: 2 },
  { note: 'CAMS tcso2 (column-integrated mass density of SO2, kg/m²)', discipline: 0, category: 20, number: 1, levelTypes: ['atmosphere', 'entireAtmosphere', 'surface'], constituents: [SO2_CONSTITUENT], variable: 'tcso2', target: 'surface', kind: 'instant', factor: DU_PER_KG_M2_SO2, priority: 2 },
];

export interface VariableMatch {
  variable: Variable;
  /** Catalogue level ident. */
  level: string;
  kind: FieldKind;
  factor: number;
  add: number;
  priority: number;
  rule: GribRule;
}

/** The catalogue level of a pressure level, if the catalogue has it. */
function pressureLevel(typeOfLevel: string, level: number): string | null {
  const hPa = typeOfLevel === 'isobaricInPa' ? level / 100 : level;
  return LEVELS.find((l) => l.hPa === hPa)?.ident ?? null;
}

/** a and b equal to a millionth (limits are decimal scaled values: 25e-7 against 2.5e-6). */
function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.abs(b);
}

/** a and b equal to a millionth, or both zero. */
function nearOrZero(a: number, b: number): boolean {
  return b === 0 ? a === 0 : near(a, b);
}

/** Whether a Code Table 4.91 size interval is "particles smaller than `diameter`". */
function sizeBelow(interval: GribInterval | undefined, diameter: number): boolean {
  if (!interval) return false;
  if (interval.type === 0 || interval.type === 5) return near(interval.first, diameter);
  if (interval.type === 4 || interval.type === 9) return near(interval.second, diameter);
  return false;
}

/** Whether a Code Table 4.91 wavelength interval holds `wavelength`. */
function holds(interval: GribInterval | undefined, wavelength: number): boolean {
  if (!interval) return false;
  if (interval.type === 11) return near(interval.first, wavelength);
  if (interval.type === 2 || interval.type === 7 || interval.type === 10) {
    return interval.first <= wavelength * (1 + 1e-6) && wavelength <= interval.second * (1 + 1e-6);
  }
  return false;
}

function ruleMatches(rule: GribRule, id: GribIdentity): boolean {
  if (rule.discipline !== id.discipline || rule.category !== id.parameterCategory || rule.number !== id.parameterNumber) return false;
  if (!rule.levelTypes.includes(id.typeOfLevel)) return false;
  if (rule.level !== undefined && rule.level !== id.level) return false;
  if (rule.centres && !rule.centres.includes(id.centre)) return false;
  if (rule.statistics && !rule.statistics.includes(id.statisticalProcessing ?? null)) return false;
  if (rule.constituents && (id.constituentType === undefined || !rule.constituents.includes(id.constituentType))) return false;
  if (rule.particlesBelow !== undefined && !sizeBelow(id.sizeInterval, rule.particlesBelow)) return false;
  if (rule.wavelength !== undefined && !holds(id.wavelengthInterval, rule.wavelength)) return false;
  if (rule.layer && !(id.firstSurfaceValue !== undefined && id.secondSurfaceValue !== undefined
    && nearOrZero(id.firstSurfaceValue, rule.layer[0]) && nearOrZero(id.secondSurfaceValue, rule.layer[1]))) return false;
  return true;
}

/**
 * The catalogue variable and level a GRIB2 field gives, or null when the catalogue has no use for
 * it (or it is on a pressure level the catalogue does not list). The first matching rule wins.
 */
export function matchGribField(id: GribIdentity): VariableMatch | null {
  for (const rule of GRIB_RULES) {
    if (!ruleMatches(rule, id)) continue;
    const level = rule.target === 'pressure' ? pressureLevel(id.typeOfLevel, id.level) : rule.target;
    if (!level) return null;
    const variable = VARIABLES[rule.variable];
    if (!variable.levels.includes(level)) return null;
    return { variable, level, kind: rule.kind, factor: rule.factor ?? 1, add: rule.add ?? 0, priority: rule.priority, rule };
  }
  return null;
}
