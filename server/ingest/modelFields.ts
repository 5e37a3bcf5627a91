/**
 * Overlays the ingest makes from model fields that are not yet what the catalogue stores
 * (common/catalogue/variables.ts, the `input` variables): the wave families' particle flow from
 * direction and period, the precipitation type from NCEP's categorical flags or ECMWF's code
 * table, cloud top and base altitudes from their pressure, the sea surface temperature from the
 * surface temperature over open water, and snow depth from its water equivalent and density.
 *
 *   step values (variable@level -> lazy field)        deriveModelFields
 *   waves_dir, waves_period            ──────────>    wavesFlow_u, wavesFlow_v
 *   ptype_rain/_snow/_freezing/_pellets | ptype_wmo   ptype (SPEC §9 code)
 *   cloudtop_pressure, cbase_pressure                  cloudtop, cbase (m)
 *   sst_skin + sst_land (+ sst_ice)                    sst (K, sea only)
 *   snow_swe + snow_density                            snowcover (cm)
 *   soilw_0_10 + soilw_10_40 | soilw_40_100            soilMoisture40 | soilMoisture100 (%)
 *
 * A field the model sends as it is stored wins over the derived one; the inputs leave the map.
 */

import { NOAH_SOIL_LAYERS, WAVE_FAMILIES } from '../../common/catalogue/variables.ts';
import type { SourceGrid } from '../../engine/regrid.ts';

export interface GridValues {
  values: Float32Array;
  grid: SourceGrid;
}

/** A step's values of one variable at one level, computed on first use; null: none after all. */
export type LazyField = () => Promise<GridValues | null>;

/** WMO Manual on Codes: standard gravity, m s⁻². */
const G0 = 9.80665;

/**
 * Deep-water group velocity of waves of period `period` (s), m/s: half the phase speed
 * g T / (2 pi) of linear (Airy) wave theory, c_g = g T / (4 pi) (Holthuijsen 2007, "Waves in
 * Oceanic and Coastal Waters", §5.4.2). A 10 s swell travels at 7.8 m/s.
 */
export function deepWaterGroupVelocity(period: number): number {
  return (G0 * period) / (4 * Math.PI);
}

/**
 * The flow the wave particles follow: u (east) and v (north) of the direction the waves travel
 * to, times their deep-water group velocity. GRIB wave directions (WMO Code Table 4.2-10-0
 * parameters 4, 7, 10, 14; ECMWF mwd) are where the waves come from, degrees clockwise from true
 * north, as wind directions are: waves from 270° (west) travel east, u > 0.
 */
export function waveFlow(directionFrom: Float32Array, period: Float32Array): [Float32Array, Float32Array] {
  const u = new Float32Array(directionFrom.length);
  const v = new Float32Array(directionFrom.length);
  for (let k = 0; k < u.length; k++) {
    const speed = deepWaterGroupVelocity(period[k]);
    const from = (directionFrom[k] * Math.PI) / 180;
    u[k] = -speed * Math.sin(from);
    v[k] = -speed * Math.cos(from);
  }
  return [u, v];
}

/**
 * Pressure altitude (m) of a pressure (Pa) in the ICAO Standard Atmosphere (ICAO Doc 7488/3,
 * ISO 2533): T0 288.15 K, lapse rate 6.5 K/km to the tropopause at 11 km (226.32 hPa), isothermal
 * 216.65 K above it (to 20 km), R = 287.05287 J kg⁻¹ K⁻¹. 500 hPa is 5574 m, 200 hPa 11 784 m.
 */
const P0 = 101_325;
const T0 = 288.15;
const LAPSE = 0.0065;
const R_AIR = 287.05287;
const TROPOPAUSE_M = 11_000;
const TROPOPAUSE_T = T0 - LAPSE * TROPOPAUSE_M;
const TROPOPAUSE_PA = P0 * (TROPOPAUSE_T / T0) ** (G0 / (R_AIR * LAPSE));

export function pressureAltitude(pa: number): number {
  if (!(pa > 0)) return NaN;
  if (pa >= TROPOPAUSE_PA) return (T0 / LAPSE) * (1 - (pa / P0) ** ((R_AIR * LAPSE) / G0));
  return TROPOPAUSE_M + ((R_AIR * TROPOPAUSE_T) / G0) * Math.log(TROPOPAUSE_PA / pa);
}

function map(values: Float32Array, f: (v: number) => number): Float32Array {
  const out = new Float32Array(values.length);
  for (let k = 0; k < out.length; k++) out[k] = f(values[k]);
  return out;
}

/** SPEC §9 precipitation type codes (common/catalogue/classes.ts PRECIPITATION_TYPES). */
const RAIN = 1;
const THUNDER = 2;
const FREEZING_RAIN = 3;
const MIXED_ICE = 4;
const SNOW = 5;
const WET_SNOW = 6;
const RAIN_SNOW = 7;
const PELLETS = 8;

/**
 * NCEP's categorical flags (1 where the type falls; a 6-hour average flag counts from 0.5) as a
 * precipitation type: freezing rain with snow or pellets is mixed ice, pellets with rain or snow
 * too, snow with rain is rain and snow; no flag is no precipitation (NaN).
 */
export function ptypeFromCategorical(flags: { rain?: Float32Array; snow?: Float32Array; freezing?: Float32Array; pellets?: Float32Array }): Float32Array {
  const n = (flags.rain ?? flags.snow ?? flags.freezing ?? flags.pellets)?.length ?? 0;
  const out = new Float32Array(n);
  const on = (a: Float32Array | undefined, k: number) => !!a && a[k] >= 0.5;
  for (let k = 0; k < n; k++) {
    const r = on(flags.rain, k);
    const s = on(flags.snow, k);
    const f = on(flags.freezing, k);
    const p = on(flags.pellets, k);
    if (f) out[k] = p || s ? MIXED_ICE : FREEZING_RAIN;
    else if (p) out[k] = r || s ? MIXED_ICE : PELLETS;
    else if (s) out[k] = r ? RAIN_SNOW : SNOW;
    else if (r) out[k] = RAIN;
    else out[k] = NaN;
  }
  return out;
}

/**
 * WMO Code Table 4.201 (ECMWF ptype) -> SPEC §9 codes. Codes 1-8 are the same classes in both
 * (rain, thunderstorm, freezing rain, mixed/ice, snow, wet snow, rain and snow, ice pellets);
 * graupel (9) and hail (10) show as ice pellets, drizzle (11) as rain, freezing drizzle (12) as
 * freezing rain; 0 (no precipitation) and anything else is NaN.
 */
const WMO_4_201: Readonly<Record<number, number>> = {
  1: RAIN, 2: THUNDER, 3: FREEZING_RAIN, 4: MIXED_ICE, 5: SNOW, 6: WET_SNOW, 7: RAIN_SNOW, 8: PELLETS,
  9: PELLETS, 10: PELLETS, 11: RAIN, 12: FREEZING_RAIN,
};

export function ptypeFromWmo(codes: Float32Array): Float32Array {
  return map(codes, (c) => WMO_4_201[Math.round(c)] ?? NaN);
}

/** Land or ice fraction (%) at or above which a node is not open sea. */
const NOT_SEA_PERCENT = 50;

/** The surface temperature where the node is open water (land and ice below half), else NaN. */
export function seaSurfaceTemperature(skin: Float32Array, landPercent: Float32Array, icePercent: Float32Array | null): Float32Array {
  const out = new Float32Array(skin.length);
  for (let k = 0; k < out.length; k++) {
    const sea = landPercent[k] < NOT_SEA_PERCENT && (!icePercent || !(icePercent[k] >= NOT_SEA_PERCENT));
    out[k] = sea ? skin[k] : NaN;
  }
  return out;
}

/** Snow depth (cm) from its water equivalent (kg m⁻²) and the snow's density (kg m⁻³). */
export function snowDepthFrom(swe: Float32Array, density: Float32Array): Float32Array {
  const out = new Float32Array(swe.length);
  for (let k = 0; k < out.length; k++) out[k] = swe[k] === 0 ? 0 : density[k] > 0 ? (100 * swe[k]) / density[k] : NaN;
  return out;
}

/**
 * NCEP's Noah land model writes SOILW = 1 m³/m³ (100 %) at land-ice points (Greenland, Antarctica):
 * a flag, not soil water, which no soil holds beyond its porosity (at most 0.476 m³/m³ in Noah's
 * soil table, Chen & Dudhia 2001). Values from this on are left out. Water points have no value
 * (bitmap).
 */
export const SOIL_LAND_ICE_PERCENT = 99.9;

/**
 * Volumetric soil moisture (%) over a depth from the land model's layers: the layers' thickness-
 * weighted mean, sum(theta_i dz_i) / sum(dz_i), the water held over the depth divided by it (0-40 cm
 * from GFS's 0-10 and 10-40 cm layers: (0.1 theta_1 + 0.3 theta_2) / 0.4). A land-ice flag or a
 * missing layer gives no value.
 */
export function soilMoistureOver(layers: readonly { values: Float32Array; thickness: number }[]): Float32Array {
  const n = layers[0]?.values.length ?? 0;
  const depth = layers.reduce((sum, l) => sum + l.thickness, 0);
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    let water = 0;
    for (const l of layers) {
      const theta = l.values[k];
      water += theta >= SOIL_LAND_ICE_PERCENT ? NaN : theta * l.thickness;
    }
    out[k] = water / depth;
  }
  return out;
}

function sameGrid(a: SourceGrid, b: SourceGrid): boolean {
  return a.ni === b.ni && a.nj === b.nj && Math.abs(a.lon0 - b.lon0) < 1e-9 && Math.abs(a.lat0 - b.lat0) < 1e-9
    && Math.abs(a.dLon - b.dLon) < 1e-12 && Math.abs(a.dLat - b.dLat) < 1e-12;
}

const key = (ident: string) => `${ident}@surface`;

/**
 * Adds to `values` what the derivations make of the inputs there (outputs a model sent itself
 * stay), and removes its own inputs (the run builder's other derivations read theirs after this
 * and drop them themselves: server/ingest/derived). Each output is computed when first read, once; inputs on grids
 * that differ give nothing.
 */
export function deriveModelFields(values: Map<string, LazyField>): void {
  const own = new Set<string>();
  const derive = (outputs: string[], required: string[], optional: string[], compute: (inputs: Record<string, Float32Array | null>) => Float32Array[]) => {
    for (const i of [...required, ...optional]) own.add(key(i));
    if (outputs.every((o) => values.has(key(o)))) return;
    if (!required.every((i) => values.has(key(i)))) return;
    const sources = [...required, ...optional].map((i) => [i, values.get(key(i))] as const).filter(([, f]) => f);
    let result: Promise<GridValues[] | null> | null = null;
    const run = () => (result ??= (async () => {
      const inputs: Record<string, Float32Array | null> = {};
      let grid: SourceGrid | null = null;
      for (const [ident, field] of sources) {
        const d = await field!();
        if (!d || (grid && !sameGrid(grid, d.grid))) {
          if (required.includes(ident)) return null;
          inputs[ident] = null;
          continue;
        }
        grid ??= d.grid;
        inputs[ident] = d.values;
      }
      if (!grid) return null;
      return compute(inputs).map((v) => ({ values: v, grid: grid! }));
    })());
    outputs.forEach((o, k) => {
      if (!values.has(key(o))) values.set(key(o), async () => (await run())?.[k] ?? null);
    });
  };

  for (const f of WAVE_FAMILIES) {
    derive([`${f}Flow_u`, `${f}Flow_v`], [`${f}_dir`, `${f}_period`], [], (i) => waveFlow(i[`${f}_dir`]!, i[`${f}_period`]!));
  }
  const flags = ['ptype_rain', 'ptype_snow', 'ptype_freezing', 'ptype_pellets'];
  if (!values.has(key('ptype_wmo')) && flags.some((i) => values.has(key(i)))) {
    derive(['ptype'], [], flags, (i) => [ptypeFromCategorical({
      rain: i.ptype_rain ?? undefined, snow: i.ptype_snow ?? undefined, freezing: i.ptype_freezing ?? undefined, pellets: i.ptype_pellets ?? undefined,
    })]);
  }
  derive(['ptype'], ['ptype_wmo'], [], (i) => [ptypeFromWmo(i.ptype_wmo!)]);
  derive(['cloudtop'], ['cloudtop_pressure'], [], (i) => [map(i.cloudtop_pressure!, pressureAltitude)]);
  derive(['cbase'], ['cbase_pressure'], [], (i) => [map(i.cbase_pressure!, pressureAltitude)]);
  derive(['sst'], ['sst_skin', 'sst_land'], ['sst_ice'], (i) => [seaSurfaceTemperature(i.sst_skin!, i.sst_land!, i.sst_ice)]);
  derive(['snowcover'], ['snow_swe', 'snow_density'], [], (i) => [snowDepthFrom(i.snow_swe!, i.snow_density!)]);
  const soil = (ident: keyof typeof NOAH_SOIL_LAYERS, values: Float32Array) => ({ values, thickness: NOAH_SOIL_LAYERS[ident][1] - NOAH_SOIL_LAYERS[ident][0] });
  derive(['soilMoisture40'], ['soilw_0_10', 'soilw_10_40'], [], (i) => [soilMoistureOver([soil('soilw_0_10', i.soilw_0_10!), soil('soilw_10_40', i.soilw_10_40!)])]);
  derive(['soilMoisture100'], ['soilw_40_100'], [], (i) => [soilMoistureOver([soil('soilw_40_100', i.soilw_40_100!)])]);

  for (const k of own) values.delete(k);
}
