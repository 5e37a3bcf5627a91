/**
 * Reader of the NWS API's station observations (api.weather.gov, "API Web Service" documentation,
 * https://www.weather.gov/documentation/services-web-api):
 *
 *   /stations/{id}/observations/latest   one GeoJSON-LD Feature: the station's latest observation
 *   /stations/{id}/observations          a FeatureCollection of such Features (up to seven days)
 *   /stations/{id}                       the station: a Feature with its name and elevation
 *
 * Each quantity is a QuantitativeValue `{ unitCode: "wmoUnit:degC", value, qualityControl }`
 * (units of the WMO codes registry, http://codes.wmo.int/common/unit). Values are converted to the
 * catalogue's base units (common/api/stations.ts); a value whose quality control failed (X:
 * rejected, B: subjectively bad, the MADIS flags the API passes on) is null. An observation without
 * a valid time or position, or with a value in a unit not known here, is refused whole
 * (StationFormatError): never shown half-read.
 */

import { KELVIN_OFFSET } from '../../../common/catalogue/metrics.ts';
import type { StationObservation } from '../../../common/api/stations.ts';

export class StationFormatError extends Error {
  override readonly name = 'StationFormatError';
}

type Json = Record<string, unknown>;

/** MADIS quality-control flags of a value not to be used. */
const FAILED_QC = new Set(['X', 'B']);

/** wmoUnit codes -> the base unit of each quantity (K, m/s, Pa, %, degrees, m). */
const TO_BASE: Readonly<Record<string, (v: number) => number>> = {
  'wmoUnit:degC': (v) => v + KELVIN_OFFSET,
  'wmoUnit:K': (v) => v,
  'wmoUnit:degF': (v) => (v - 32) * 5 / 9 + KELVIN_OFFSET,
  'wmoUnit:km_h-1': (v) => v / 3.6,
  'wmoUnit:m_s-1': (v) => v,
  // 1 knot = 1852 m per hour (international nautical mile).
  'wmoUnit:kn': (v) => v * 1852 / 3600,
  'wmoUnit:Pa': (v) => v,
  'wmoUnit:hPa': (v) => v * 100,
  'wmoUnit:percent': (v) => v,
  'wmoUnit:degree_(angle)': (v) => v,
  'wmoUnit:m': (v) => v,
};

/** A QuantitativeValue in base units; null when absent or failed quality control. */
function quantity(p: Json, field: string): number | null {
  const q = p[field] as Json | null | undefined;
  if (q === undefined || q === null) return null;
  if (typeof q !== 'object') throw new StationFormatError(`${field} is not a QuantitativeValue`);
  if (q.value === null || q.value === undefined) return null;
  if (typeof q.value !== 'number' || !Number.isFinite(q.value)) throw new StationFormatError(`${field} value ${JSON.stringify(q.value)} is not a number`);
  const unit = String(q.unitCode ?? '').replace(/^unit:/, 'wmoUnit:');
  const convert = TO_BASE[unit];
  if (!convert) throw new StationFormatError(`${field} has unit ${JSON.stringify(q.unitCode)}, not one this reader knows`);
  if (typeof q.qualityControl === 'string' && FAILED_QC.has(q.qualityControl)) return null;
  return convert(q.value);
}

/** The station id of an observation ("https://api.weather.gov/stations/KFLL" -> KFLL; newer answers carry stationId). */
function stationIdOf(p: Json): string {
  const id = typeof p.stationId === 'string' ? p.stationId : typeof p.station === 'string' ? p.station.split('/').pop() ?? '' : '';
  if (!/^[A-Z0-9]{3,16}$/.test(id)) throw new StationFormatError(`station ${JSON.stringify(p.station ?? p.stationId)} is not a station id`);
  return id;
}

export interface NwsObservation {
  stationId: string;
  lat: number;
  lon: number;
  elevation: number | null;
  observation: StationObservation;
}

/** One observation Feature (/observations/latest, or an item of /observations). */
export function parseNwsObservation(json: unknown): NwsObservation {
  const feature = json as Json | null;
  if (!feature || typeof feature !== 'object' || feature.type !== 'Feature') throw new StationFormatError('not a GeoJSON Feature');
  const p = (feature.properties ?? null) as Json | null;
  if (!p || typeof p !== 'object') throw new StationFormatError('no properties');
  const stationId = stationIdOf(p);
  const time = typeof p.timestamp === 'string' ? Date.parse(p.timestamp) : NaN;
  if (!Number.isFinite(time)) throw new StationFormatError(`timestamp ${JSON.stringify(p.timestamp)} is not a time`);
  const geometry = feature.geometry as Json | null;
  const [lon, lat] = geometry?.type === 'Point' && Array.isArray(geometry.coordinates) ? geometry.coordinates as unknown[] : [];
  if (typeof lat !== 'number' || typeof lon !== 'number' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
    throw new StationFormatError(`geometry ${JSON.stringify(geometry)?.slice(0, 80)} is not a Point [longitude, latitude]`);
  }
  const wind = quantity(p, 'windSpeed');
  const windDir = quantity(p, 'windDirection');
  const raw = typeof p.rawMessage === 'string' ? p.rawMessage.trim() : '';
  const weather = typeof p.textDescription === 'string' && p.textDescription.trim() !== '' ? p.textDescription.trim() : null;
  const observation: StationObservation = {
    time,
    temp: quantity(p, 'temperature'),
    dewpoint: quantity(p, 'dewpoint'),
    wind,
    gust: quantity(p, 'windGust'),
    // Calm (00000KT) has no direction.
    windDir: wind === 0 ? null : windDir,
    pressure: quantity(p, 'seaLevelPressure') ?? quantity(p, 'barometricPressure'),
    rh: quantity(p, 'relativeHumidity'),
    weather,
  };
  if (raw) observation.raw = raw;
  return { stationId, lat, lon, elevation: quantity(p, 'elevation'), observation };
}

/**
 * The observations of an /observations answer: the ones that read, and for each refused Feature
 * the reason and its raw text (for the log).
 */
export function parseNwsObservations(json: unknown): { observations: NwsObservation[]; refused: { reason: string; raw: string }[] } {
  const collection = json as Json | null;
  if (!collection || collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new StationFormatError('not a GeoJSON FeatureCollection with features');
  }
  const observations: NwsObservation[] = [];
  const refused: { reason: string; raw: string }[] = [];
  for (const feature of collection.features) {
    try {
      observations.push(parseNwsObservation(feature));
    } catch (error) {
      if (!(error instanceof StationFormatError)) throw error;
      refused.push({ reason: error.message, raw: JSON.stringify(feature) });
    }
  }
  return { observations, refused };
}

/** A /stations/{id} answer's name, position and elevation. */
export function parseNwsStation(json: unknown): { id: string; name: string; lat: number; lon: number; elevation: number | null } {
  const feature = json as Json | null;
  if (!feature || feature.type !== 'Feature') throw new StationFormatError('station: not a GeoJSON Feature');
  const p = (feature.properties ?? {}) as Json;
  const id = typeof p.stationIdentifier === 'string' ? p.stationIdentifier : '';
  const name = typeof p.name === 'string' ? p.name.trim() : '';
  const geometry = feature.geometry as Json | null;
  const [lon, lat] = geometry?.type === 'Point' && Array.isArray(geometry.coordinates) ? geometry.coordinates as unknown[] : [];
  if (!id || !name || typeof lat !== 'number' || typeof lon !== 'number') throw new StationFormatError('station: no stationIdentifier, name or Point geometry');
  return { id, name, lat, lon, elevation: quantity(p, 'elevation') };
}
