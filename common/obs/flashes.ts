/**
 * Lightning flashes of the last hour as the server publishes them and the render worker draws
 * them (issue 15 §3; SPEC §1 lists "lightning" among the map layers): one small binary file,
 * checked by a magic word and a version before anything reads it (the flatbush habit, STYLE.md).
 *
 * Layout (little-endian; every column starts on a 4-byte boundary so typed arrays view it in place):
 * ```
 *  offset  size      field
 *  0       4         magic "ISFL"
 *  4       1         version (1)
 *  5       3         zero
 *  8       4  u32    n, the number of flashes
 *  12      4         zero
 *  16      8  f64    base time, ms since the epoch (the newest flash's time; ages count back from it)
 *  24      4n f32    longitude, degrees east (-180..180)
 *  ..      4n f32    latitude, degrees north
 *  ..      4n f32    seconds before the base time (>= 0): the flash's first optical event
 *  ..      4n f32    radiant energy, femtojoules (1e-15 J; GLM's own unit step)
 *  ..      4n f32    area, km²
 *  ..      n  u8     quality flag as the provider gives it (GLM: 0 good, 1/3/5 degraded)
 * ```
 * Flashes are sorted oldest first, so a reader that keeps only recent ones cuts one prefix.
 */

export const FLASHES_MAGIC = 0x4c465349; // "ISFL" read as a little-endian u32
export const FLASHES_VERSION = 1;
export const FLASHES_HEADER_BYTES = 24;

/** How long a flash stays on the map (issue 15 §3: "flashes of the last hour"). */
export { HOUR_MS as FLASH_WINDOW_MS } from '../time.ts';

export interface Flashes {
  /** ms since the epoch of the newest flash; ages count back from it. */
  baseTime: number;
  lon: Float32Array;
  lat: Float32Array;
  /** Seconds before baseTime (>= 0). */
  ageSeconds: Float32Array;
  /** Radiant energy, femtojoules. */
  energyFj: Float32Array;
  areaKm2: Float32Array;
  quality: Uint8Array;
}

export class FlashesFormatError extends Error {
  override name = 'FlashesFormatError';
}

function byteLength(n: number): number {
  return FLASHES_HEADER_BYTES + 20 * n + n;
}

/** Column arrays into one buffer (layout above). */
export function encodeFlashes(flashes: Flashes): Uint8Array {
  const n = flashes.lon.length;
  for (const column of [flashes.lat, flashes.ageSeconds, flashes.energyFj, flashes.areaKm2, flashes.quality]) {
    if (column.length !== n) throw new FlashesFormatError(`flash columns differ in length (${column.length} vs ${n})`);
  }
  const bytes = new Uint8Array(byteLength(n));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, FLASHES_MAGIC, true);
  view.setUint8(4, FLASHES_VERSION);
  view.setUint32(8, n, true);
  view.setFloat64(16, flashes.baseTime, true);
  let offset = FLASHES_HEADER_BYTES;
  for (const column of [flashes.lon, flashes.lat, flashes.ageSeconds, flashes.energyFj, flashes.areaKm2]) {
    for (let i = 0; i < n; i++) view.setFloat32(offset + 4 * i, column[i], true);
    offset += 4 * n;
  }
  bytes.set(flashes.quality, offset);
  return bytes;
}

/** Checks the magic, version and length, then views the columns (copies only if unaligned). */
export function decodeFlashes(input: ArrayBuffer | Uint8Array): Flashes {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteLength < FLASHES_HEADER_BYTES) throw new FlashesFormatError(`flash file too short (${bytes.byteLength} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== FLASHES_MAGIC) throw new FlashesFormatError('data does not appear to be an Isobar flash file');
  const version = view.getUint8(4);
  if (version !== FLASHES_VERSION) throw new FlashesFormatError(`flash file version ${version}, expected ${FLASHES_VERSION}`);
  const n = view.getUint32(8, true);
  if (bytes.byteLength !== byteLength(n)) throw new FlashesFormatError(`flash file of ${n} flashes should be ${byteLength(n)} bytes, got ${bytes.byteLength}`);
  const own = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const column = (k: number): Float32Array => new Float32Array(own.buffer, own.byteOffset + FLASHES_HEADER_BYTES + 4 * n * k, n);
  return {
    baseTime: view.getFloat64(16, true),
    lon: column(0),
    lat: column(1),
    ageSeconds: column(2),
    energyFj: column(3),
    areaKm2: column(4),
    quality: own.subarray(FLASHES_HEADER_BYTES + 20 * n, FLASHES_HEADER_BYTES + 21 * n),
  };
}

/**
 * Index of the flash nearest to (lon, lat) within maxKm, by great-circle (haversine) distance on a
 * sphere of the mean Earth radius; -1 when none is that close.
 */
export function nearestFlash(flashes: Flashes, lon: number, lat: number, maxKm: number): number {
  const rad = Math.PI / 180;
  const cosLat = Math.cos(lat * rad);
  let best = -1;
  let bestH = Infinity;
  for (let i = 0; i < flashes.lon.length; i++) {
    const dLat = (flashes.lat[i] - lat) * rad;
    const dLon = (flashes.lon[i] - lon) * rad;
    const h = Math.sin(dLat / 2) ** 2 + cosLat * Math.cos(flashes.lat[i] * rad) * Math.sin(dLon / 2) ** 2;
    if (h < bestH) {
      bestH = h;
      best = i;
    }
  }
  if (best < 0) return -1;
  const km = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(bestH)));
  return km <= maxKm ? best : -1;
}

/** IUGG mean Earth radius R1, km. */
const EARTH_RADIUS_KM = 6371.0088;

/**
 * A lightning source's manifest, `/obs/v1.0/lightning/{source id}.json`, written after the flash
 * file it names (server/obs/core/store.ts: items first, manifest last).
 */
export interface FlashesManifest {
  source: string;
  /** Who made the data, and the credit line its licence asks for (shown with the layer). */
  label: string;
  attribution: string;
  /** When the poll that published this ended (ISO 8601). */
  updated: string;
  /** The newest flash (ISO 8601): the flash file's base time. */
  newest: string;
  /** Flashes in the file. */
  flashes: number;
  /**
   * Flashes two satellites both saw (GOES-East and GOES-West over the eastern Pacific and the
   * Americas), counted once in `flashes`: how many second copies were left out.
   */
  merged: number;
  /** Path of the flash file under /obs/v1.0/lightning/. */
  file: string;
}

export function isFlashesManifest(value: unknown): value is FlashesManifest {
  const m = value as Partial<FlashesManifest> | null;
  return !!m && typeof m.source === 'string' && typeof m.label === 'string' && typeof m.attribution === 'string' && typeof m.file === 'string'
    && typeof m.flashes === 'number' && typeof m.merged === 'number' && Number.isFinite(Date.parse(String(m.newest))) && Number.isFinite(Date.parse(String(m.updated)));
}

/** Lightning sources the map shows, each publishing `{id}.json` (GOES GLM for the Americas). */
export const LIGHTNING_SOURCE_IDS = ['glm'] as const;
