/**
 * Active fire detections as the server publishes them (issue 15 §6; SPEC §3 pois "firespots";
 * SPEC §9: fires update every 60 min, max tile zoom for active fires 18/18): one GeoJSON
 * FeatureCollection of points, each with the detection's time, the provider's confidence and the
 * fire radiative power. The UI lists and draws them; nothing else is derived.
 */

/** Minutes between polls of a fire source (SPEC §9 "Update intervals: ... fires 60"). */
export const FIRES_INTERVAL_MINUTES = 60;
/** Max map zoom at which firespots are shown (SPEC §9 "Max tile zoom free/premium: ... active fires 18/18"). */
export const FIRES_MAX_ZOOM = 18;

/**
 * The provider's confidence: VIIRS gives a class (low, nominal, high), MODIS a percentage 0-100,
 * HMS none for its satellite algorithms.
 */
export type FireConfidence = { kind: 'class'; value: 'low' | 'nominal' | 'high' } | { kind: 'percent'; value: number } | null;

export interface FireSpot {
  lon: number;
  lat: number;
  /** Detection (satellite overpass) time, ms since the epoch. */
  time: number;
  /** Satellite and instrument as the provider names them, e.g. "N20 VIIRS", "GOES-EAST". */
  sensor: string;
  confidence: FireConfidence;
  /** Fire radiative power, MW; null where the provider has none. */
  frpMw: number | null;
}

export interface FirespotsCollection {
  type: 'FeatureCollection';
  features: {
    type: 'Feature';
    geometry: { type: 'Point'; coordinates: [number, number] };
    properties: { time: number; sensor: string; confidence: FireConfidence; frp: number | null };
  }[];
}

export function firespotsGeoJson(spots: readonly FireSpot[]): FirespotsCollection {
  return {
    type: 'FeatureCollection',
    features: spots.map((s) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [s.lon, s.lat] },
      properties: { time: s.time, sensor: s.sensor, confidence: s.confidence, frp: s.frpMw },
    })),
  };
}

/** Reads a published collection back, refusing anything that is not one (validated at the edge). */
export function firespotsFromGeoJson(value: unknown): FireSpot[] {
  const collection = value as Partial<FirespotsCollection> | null;
  if (!collection || collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) throw new Error('firespots: not a GeoJSON FeatureCollection');
  return collection.features.map((f, i) => {
    const c = f?.geometry?.coordinates;
    const p = f?.properties;
    if (!Array.isArray(c) || !Number.isFinite(c[0]) || !Number.isFinite(c[1]) || !p || !Number.isFinite(p.time)) throw new Error(`firespots: feature ${i} is not a dated point`);
    return { lon: c[0], lat: c[1], time: p.time, sensor: String(p.sensor ?? ''), confidence: p.confidence ?? null, frpMw: typeof p.frp === 'number' ? p.frp : null };
  });
}

/** Fire sources in the order the map prefers them (FIRMS where a key is configured, else HMS). */
export const FIRE_SOURCE_IDS = ['firms', 'hms'] as const;
