/** vt-pbf 3 ships no types: the one function the tests use to write Mapbox vector tiles. */
declare module 'vt-pbf' {
  import type { LegacyTile } from 'geojson-vt';
  export function fromGeojsonVt(layers: Record<string, LegacyTile>, options?: { version?: number; extent?: number }): Uint8Array;
}
