/**
 * The label contract (SPEC §3 "City label", §7) of server/routes/labels.ts and the map's labels
 * layer (ui/labels/cityLabels.ts); common/labels.ts holds the arithmetic both sides share.
 *
 *   GET /labels/{version}/{lang}/{z}/{x}/{y}.json            LabelsTile   no cache (ETag)
 *   GET /citytile/v1.0/{product}/{z}/{x}/{y}?refTime&step&hours&labelsVersion
 *                                                            CityTile: the forecast of every label
 *                                                            of that tile over a window of hours
 */

import type { Infer, Same } from './schema.ts';

/** The label data's version: a label id is only meaningful within it. */
export const LABELS_VERSION = 'v1';
/** Type class by population (the label's size on the map, common/labels.ts labelClass). */
export type LabelClass = 'capital' | 'city' | 'town';

export const LABELS_ROUTE = '/labels/:version/:lang/:z/:x/:file';
export const CITYTILE_ROUTE = '/citytile/v1.0/:product/:z/:x/:y';

/** SPEC §3 "City label: id, name, type class, lat, lon, width". */
export interface CityLabel {
  /** Stable within LABELS_VERSION. */
  id: string;
  name: string;
  type: LabelClass;
  lat: number;
  lon: number;
  /** Estimated width of the drawn label, CSS px. */
  width: number;
}

export interface LabelsTile {
  version: string;
  z: number;
  x: number;
  y: number;
  labels: CityLabel[];
}

/**
 * SPEC §3 "forecast response: forecast by id, reftime, hours": base-unit series per label id, one
 * value per hour of `hours` (forecast hours after `reftime`), null where there is no data. Keys
 * are the point forecast's variables (temp, gust, rain, ...) with wind as `wind` (speed, m/s) and
 * `windDir` (degrees the wind comes from) instead of its u and v components.
 */
export interface CityTile {
  reftime: number;
  hours: number[];
  step: number;
  labelsVersion: string;
  forecast: Record<string, Record<string, (number | null)[]>>;
  demo?: true;
  sample?: true;
}

export function labelsPath(lang: string, z: number, x: number, y: number, version = LABELS_VERSION): string {
  return `/labels/${version}/${lang}/${z}/${x}/${y}.json`;
}

export interface CityTileQuery {
  /** The run, YYYYMMDDHH. */
  refTime: string;
  /** First and last forecast hour wanted, inclusive. */
  hours: readonly [number, number];
  step?: number;
  labelsVersion?: string;
}

export function cityTilePath(product: string, z: number, x: number, y: number, q: CityTileQuery): string {
  const params = new URLSearchParams({ refTime: q.refTime, hours: `${q.hours[0]}-${q.hours[1]}`, labelsVersion: q.labelsVersion ?? LABELS_VERSION });
  if (q.step !== undefined) params.set('step', String(q.step));
  return `/citytile/v1.0/${product}/${z}/${x}/${y}?${params}`;
}

/** Parses the hours query "from-to" (forecast hours, inclusive); null when it is not one. */
export function parseHoursRange(text: string): [number, number] | null {
  const m = /^(\d{1,4})-(\d{1,4})$/.exec(text);
  if (!m) return null;
  const range: [number, number] = [Number(m[1]), Number(m[2])];
  return range[0] <= range[1] ? range : null;
}

const CITY_LABEL = {
  type: 'object',
  required: ['id', 'name', 'type', 'lat', 'lon', 'width'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', enum: ['capital', 'city', 'town'] },
    lat: { type: 'number' },
    lon: { type: 'number' },
    width: { type: 'integer' },
  },
} as const;

export const LABELS_ANSWER = {
  type: 'object',
  required: ['version', 'z', 'x', 'y', 'labels'],
  properties: {
    version: { type: 'string' }, z: { type: 'integer' }, x: { type: 'integer' }, y: { type: 'integer' },
    labels: { type: 'array', items: CITY_LABEL },
  },
} as const;

export const CITYTILE_ANSWER = {
  type: 'object',
  required: ['reftime', 'hours', 'step', 'labelsVersion', 'forecast'],
  properties: {
    reftime: { type: 'number' },
    hours: { type: 'array', items: { type: 'number' } },
    step: { type: 'integer' },
    labelsVersion: { type: 'string' },
    demo: { type: 'boolean', enum: [true] },
    sample: { type: 'boolean', enum: [true] },
    forecast: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: ['number', 'null'] } } } },
  },
} as const;

// The documented interfaces above and the schemas describe the same answers.
const labelsSchemaMatches: Same<Infer<typeof LABELS_ANSWER>, LabelsTile> = true;
const cityTileSchemaMatches: Same<Infer<typeof CITYTILE_ANSWER>['hours'], CityTile['hours']> = true;
void labelsSchemaMatches;
void cityTileSchemaMatches;
