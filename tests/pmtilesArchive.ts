/**
 * Test helpers for the tile base maps (unit tests of workers/ and server/, tests/basemaps.spec.ts): a small PMTiles v3 archive of Mapbox vector tiles built from
 * hand-made GeoJSON features (geojson-vt cuts them into tiles, vt-pbf writes each tile), and a local
 * HTTP server that serves it by byte range as a PMTiles reader asks.
 *
 * The archive is written here after the PMTiles v3 specification
 * (github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): a 127-byte header, a root directory
 * of varint columns (tile id deltas, run lengths, lengths, offsets), JSON metadata, then the tile
 * data; directory, metadata and tiles gzip-compressed, as Protomaps basemap builds are.
 */

import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import GeoJSONVT from 'geojson-vt';
import type { FeatureCollection } from 'geojson';
import { zxyToTileId } from 'pmtiles';
import { fromGeojsonVt } from 'vt-pbf';

export const MVT_EXTENT = 4096;
const HEADER_BYTES = 127;

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

interface ArchiveEntry { tileId: number; offset: number; length: number }

/** A PMTiles v3 root directory: entries sorted by tile id, run length 1, offsets contiguous. */
function directory(entries: ArchiveEntry[]): Uint8Array {
  const out: number[] = [];
  writeVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    writeVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (let i = 0; i < entries.length; i++) writeVarint(out, 1);
  for (const e of entries) writeVarint(out, e.length);
  entries.forEach((e, i) => {
    const contiguous = i > 0 && e.offset === entries[i - 1].offset + entries[i - 1].length;
    writeVarint(out, contiguous ? 0 : e.offset + 1);
  });
  return Uint8Array.from(out);
}

/**
 * Writes a PMTiles v3 archive of MVT tiles for every tile of zooms minZoom..maxZoom that has a
 * feature of one of the layers (Protomaps basemap layer names: earth, water, roads, places ...).
 */
export function buildVectorArchive(layers: Record<string, FeatureCollection>, minZoom: number, maxZoom: number): Uint8Array {
  const indexes = Object.entries(layers).map(([name, data]) => [name, new GeoJSONVT(data, { maxZoom, indexMaxZoom: maxZoom, extent: MVT_EXTENT, buffer: 64, tolerance: 1 })] as const);
  const tiles: { tileId: number; bytes: Uint8Array }[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const tileLayers: Record<string, ReturnType<GeoJSONVT['getTile']> & object> = {};
        for (const [name, index] of indexes) {
          const tile = index.getTile(z, x, y);
          if (tile && tile.features.length) tileLayers[name] = tile;
        }
        if (!Object.keys(tileLayers).length) continue;
        tiles.push({ tileId: zxyToTileId(z, x, y), bytes: gzipSync(fromGeojsonVt(tileLayers, { version: 2, extent: MVT_EXTENT })) });
      }
    }
  }
  tiles.sort((a, b) => a.tileId - b.tileId);
  const entries: ArchiveEntry[] = [];
  let offset = 0;
  for (const t of tiles) {
    entries.push({ tileId: t.tileId, offset, length: t.bytes.length });
    offset += t.bytes.length;
  }
  const root = gzipSync(directory(entries));
  const metadata = gzipSync(JSON.stringify({ vector_layers: Object.keys(layers).map((id) => ({ id, fields: {} })) }));
  const dataLength = offset;
  const bytes = new Uint8Array(HEADER_BYTES + root.length + metadata.length + dataLength);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('PMTiles'), 0);
  bytes[7] = 3;
  const u64 = (at: number, v: number) => view.setBigUint64(at, BigInt(v), true);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const dataOffset = metadataOffset + metadata.length;
  u64(8, rootOffset); u64(16, root.length);
  u64(24, metadataOffset); u64(32, metadata.length);
  u64(40, dataOffset); u64(48, 0);
  u64(56, dataOffset); u64(64, dataLength);
  u64(72, tiles.length); u64(80, tiles.length); u64(88, tiles.length);
  bytes[96] = 1; // clustered
  bytes[97] = 2; // internal compression gzip
  bytes[98] = 2; // tile compression gzip
  bytes[99] = 1; // MVT
  bytes[100] = minZoom;
  bytes[101] = maxZoom;
  view.setInt32(102, -180e7, true); view.setInt32(106, -85e7, true);
  view.setInt32(110, 180e7, true); view.setInt32(114, 85e7, true);
  bytes[118] = minZoom;
  bytes.set(root, rootOffset);
  bytes.set(metadata, metadataOffset);
  let p = dataOffset;
  for (const t of tiles) {
    bytes.set(t.bytes, p);
    p += t.bytes.length;
  }
  return bytes;
}

/** The path at which serveBytes lists the Range headers it was asked for (JSON array), for tests in other processes. */
export const REQUESTS_PATH = '/__requests.json';

/**
 * Serves `bytes` at every path, answering Range requests (206) as a static file server does, to
 * any origin (CORS, with the preflight a Range header may need); port 0 picks a free one.
 * REQUESTS_PATH answers the requests so far.
 */
export async function serveBytes(bytes: Uint8Array, port = 0): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { 'access-control-allow-headers': 'range', 'access-control-allow-methods': 'GET, HEAD' });
      response.end();
      return;
    }
    if (request.url === REQUESTS_PATH) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(requests));
      return;
    }
    const range = request.headers.range;
    requests.push(range ?? 'whole');
    response.setHeader('accept-ranges', 'bytes');
    const match = range && /^bytes=(\d+)-(\d+)$/.exec(range);
    if (!match) {
      response.writeHead(200, { 'content-length': bytes.length });
      response.end(bytes);
      return;
    }
    const start = Number(match[1]);
    const end = Math.min(Number(match[2]), bytes.length - 1);
    response.writeHead(206, { 'content-range': `bytes ${start}-${end}/${bytes.length}`, 'content-length': end - start + 1 });
    response.end(bytes.subarray(start, end + 1));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/test.pmtiles`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The hand-made features of the tests: an island with a lake, a road across it, a river, a border and four places. */
export function sampleBasemapLayers(): Record<string, FeatureCollection> {
  const fc = (features: FeatureCollection['features']): FeatureCollection => ({ type: 'FeatureCollection', features });
  return {
    earth: fc([{ type: 'Feature', properties: { kind: 'earth' }, geometry: { type: 'Polygon', coordinates: [[[10, 40], [20, 40], [20, 50], [10, 50], [10, 40]], [[14, 44], [14, 46], [16, 46], [16, 44], [14, 44]]] } }]),
    water: fc([
      { type: 'Feature', properties: { kind: 'lake' }, geometry: { type: 'Polygon', coordinates: [[[14, 44], [16, 44], [16, 46], [14, 46], [14, 44]]] } },
      { type: 'Feature', properties: { kind: 'river' }, geometry: { type: 'LineString', coordinates: [[11, 41], [13, 43]] } },
    ]),
    landuse: fc([{ type: 'Feature', properties: { kind: 'forest' }, geometry: { type: 'Polygon', coordinates: [[[17, 47], [19, 47], [19, 49], [17, 49], [17, 47]]] } }]),
    roads: fc([{ type: 'Feature', properties: { kind: 'highway' }, geometry: { type: 'LineString', coordinates: [[10.5, 48], [19.5, 42]] } }]),
    boundaries: fc([{ type: 'Feature', properties: { kind: 'country' }, geometry: { type: 'LineString', coordinates: [[12, 40], [12, 50]] } }]),
    // Places of the Protomaps schema: names in other languages as name:xx, population_rank, min_zoom.
    places: fc([
      { type: 'Feature', properties: { kind: 'locality', name: 'Isola', 'name:de': 'Insel', population_rank: 10, min_zoom: 4 }, geometry: { type: 'Point', coordinates: [18, 44] } },
      // Near the border crossing of tests/basemaps.spec.ts (12° E, 47° N, zoom 12).
      { type: 'Feature', properties: { kind: 'locality', name: 'Valico', 'name:en': 'Pass Town', 'name:de': 'Passdorf', population_rank: 8, min_zoom: 8 }, geometry: { type: 'Point', coordinates: [12.03, 47.02] } },
      { type: 'Feature', properties: { kind: 'neighbourhood', name: 'Borgo', population_rank: 2, min_zoom: 12 }, geometry: { type: 'Point', coordinates: [11.97, 46.985] } },
      { type: 'Feature', properties: { kind: 'locality', name: 'Casale', 'name:en': 'Farmstead', population_rank: 1, min_zoom: 14 }, geometry: { type: 'Point', coordinates: [11.98, 47.02] } },
    ]),
  };
}
