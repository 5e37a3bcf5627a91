/**
 * A vertical profile of the atmosphere at one place and time (SPEC §2 /sounding and /radiosonde):
 * observed by a radiosonde (server/obs/soundings) or taken from a model's pressure levels at a point
 * (the meteogram's level store). The skew-T log-p diagram, the hodograph and the indices read this.
 *
 * Units are the catalogue's base units where it has them: hPa for pressure (the diagram's axis),
 * m above mean sea level for heights, °C for temperatures (the formulas' and the sources' unit),
 * m/s for wind speed, degrees (meteorological, where the wind comes from) for direction.
 * Levels run from the ground up (pressure decreasing); a missing value is null.
 */

export interface SoundingLevel {
  /** hPa. */
  pressure: number;
  /** m above mean sea level; null where the source gives none. */
  height: number | null;
  /** °C. */
  temp: number | null;
  /** °C. */
  dewpoint: number | null;
  /** Degrees the wind comes from, 0..360. */
  windDir: number | null;
  /** m/s. */
  windSpeed: number | null;
}

export interface Sounding {
  /** Where it was taken: a station (radiosonde) or a model point. */
  source: 'radiosonde' | 'model';
  /** Station id (WMO number or ICAO-like id) for radiosondes; the product ident for models. */
  id: string;
  name?: string;
  lat: number;
  lon: number;
  /** m above mean sea level of the ground (station elevation or model terrain), null if unknown. */
  elevation: number | null;
  /** ms since the epoch: the observation time or the forecast's valid time. */
  time: number;
  /** Model run (ms) for model soundings. */
  refTime?: number;
  levels: SoundingLevel[];
}

/** The parcel a curve or index starts from (SPEC §2 sounding: surface, mixed layer, most unstable). */
export type ParcelKind = 'surface' | 'mixedLayer' | 'mostUnstable';

export interface ParcelLevel {
  pressure: number;
  /** °C of the lifted parcel (virtual temperature correction not applied to this curve). */
  temp: number;
}

export interface ParcelAnalysis {
  kind: ParcelKind;
  /** Where the parcel starts: hPa, °C, °C. */
  start: { pressure: number; temp: number; dewpoint: number };
  /** The parcel's curve from its start to the top of the sounding. */
  curve: ParcelLevel[];
  /** J/kg; 0 when there is no positive area. */
  cape: number;
  /** J/kg, <= 0. */
  cin: number;
  /** Lifted condensation level, hPa and m MSL. */
  lcl: { pressure: number; height: number | null } | null;
  /** Level of free convection; null when the parcel never becomes buoyant. */
  lfc: { pressure: number; height: number | null } | null;
  /** Equilibrium level; null with no LFC. */
  el: { pressure: number; height: number | null } | null;
  /** Lifted index at 500 hPa, °C (environment minus parcel). */
  liftedIndex: number | null;
}

export interface SoundingIndices {
  parcels: Record<ParcelKind, ParcelAnalysis>;
  /** Precipitable water, mm. */
  precipitableWater: number | null;
  /** Height of the 0 °C level, m MSL (the lowest crossing from above zero to below), and its pressure. */
  freezingLevel: { pressure: number; height: number | null } | null;
}
