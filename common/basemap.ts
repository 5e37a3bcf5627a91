/**
 * The offline basemap binary: Natural Earth land, coastlines and borders (npm world-atlas),
 * projected to Web Mercator, triangulated and quantized at build time (assets/basemap/build.ts)
 * so the render worker uploads its meshes without any work of its own.
 *
 * Layout, version 2, little-endian:
 *
 *   offset  size  field
 *   0       4     magic 'I' 'S' 'B' 'M'
 *   4       2     version (u16) = 2
 *   6       2     reserved, 0
 *   8       4     x0 (f32)   quantized x maps to x0 + (x1 - x0) * q / 65535 (normalised Mercator;
 *   12      4     x1 (f32)   x runs past 0..1 where a polygon crosses the antimeridian)
 *   16      4     y0 (f32)   quantized y maps to y0 + (y1 - y0) * q / 65535 (0 = 85.05° N)
 *   20      4     y1 (f32)
 *   24      6*8   per mesh (land, coast, borders, lakes, rivers, admin1): vertex count (u32),
 *                 index count (u32); a mesh the data has not is empty
 *   72      ...   per mesh in that order: vertices u16 x 2 (x, y), then indices u16 (triangles
 *                 for land and lakes, line pairs for the others), each section padded to 4 bytes.
 *
 * Version 1 (still read) had no y range (y0 = 0, y1 = 1) and three meshes, counts at offset 16,
 * data at 40. A whole-world map (110m, 50m) quantizes over the world; a 10m region cell over its
 * own extent, so 16 bits keep their precision at the zooms it is drawn.
 */

const BASEMAP_MAGIC = 0x4d425349; // 'ISBM'
const BASEMAP_VERSION = 2;
const V1_HEADER_BYTES = 40;
const HEADER_BYTES = 72;
const MESH_NAMES = ['land', 'coast', 'borders', 'lakes', 'rivers', 'admin1'] as const;

export interface BasemapMesh {
  /** x, y pairs, quantized. */
  vertices: Uint16Array;
  indices: Uint16Array;
}

export interface Basemap {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  land: BasemapMesh;
  coast: BasemapMesh;
  borders: BasemapMesh;
  /** Natural Earth 10m lakes, rivers and admin-1 borders where the build had them. */
  lakes: BasemapMesh;
  rivers: BasemapMesh;
  admin1: BasemapMesh;
}

export const emptyMesh = (): BasemapMesh => ({ vertices: new Uint16Array(0), indices: new Uint16Array(0) });

class BasemapError extends Error {
  override name = 'BasemapError';
}

const pad4 = (n: number) => (n + 3) & ~3;

export function encodeBasemap(map: Basemap): Uint8Array {
  const meshes = MESH_NAMES.map((name) => map[name]);
  let size = HEADER_BYTES;
  for (const m of meshes) size += pad4(m.vertices.byteLength) + pad4(m.indices.byteLength);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, BASEMAP_MAGIC, true);
  view.setUint16(4, BASEMAP_VERSION, true);
  view.setFloat32(8, map.x0, true);
  view.setFloat32(12, map.x1, true);
  view.setFloat32(16, map.y0, true);
  view.setFloat32(20, map.y1, true);
  let p = HEADER_BYTES;
  meshes.forEach((m, i) => {
    view.setUint32(24 + i * 8, m.vertices.length / 2, true);
    view.setUint32(28 + i * 8, m.indices.length, true);
    bytes.set(new Uint8Array(m.vertices.buffer, m.vertices.byteOffset, m.vertices.byteLength), p);
    p += pad4(m.vertices.byteLength);
    bytes.set(new Uint8Array(m.indices.buffer, m.indices.byteOffset, m.indices.byteLength), p);
    p += pad4(m.indices.byteLength);
  });
  return bytes;
}

export function decodeBasemap(buffer: ArrayBuffer): Basemap {
  if (buffer.byteLength < V1_HEADER_BYTES) throw new BasemapError('Basemap is truncated');
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== BASEMAP_MAGIC) throw new BasemapError('Data does not appear to be an Isobar basemap (bad magic bytes)');
  const version = view.getUint16(4, true);
  if (version !== 1 && version !== BASEMAP_VERSION) throw new BasemapError(`Unsupported basemap version ${version}`);
  if (version === 2 && buffer.byteLength < HEADER_BYTES) throw new BasemapError('Basemap is truncated');
  const x0 = view.getFloat32(8, true);
  const x1 = view.getFloat32(12, true);
  const [y0, y1] = version === 1 ? [0, 1] : [view.getFloat32(16, true), view.getFloat32(20, true)];
  const countsAt = version === 1 ? 16 : 24;
  const meshCount = version === 1 ? 3 : MESH_NAMES.length;
  let p = version === 1 ? V1_HEADER_BYTES : HEADER_BYTES;
  const meshes: BasemapMesh[] = [];
  for (let i = 0; i < meshCount; i++) {
    const vertexCount = view.getUint32(countsAt + i * 8, true);
    const indexCount = view.getUint32(countsAt + 4 + i * 8, true);
    const vBytes = vertexCount * 4;
    const iBytes = indexCount * 2;
    if (p + pad4(vBytes) + pad4(iBytes) > buffer.byteLength) throw new BasemapError('Basemap is truncated');
    const vertices = new Uint16Array(buffer, p, vertexCount * 2);
    p += pad4(vBytes);
    const indices = new Uint16Array(buffer, p, indexCount);
    p += pad4(iBytes);
    for (let k = 0; k < indices.length; k++) {
      if (indices[k] >= vertexCount) throw new BasemapError(`Basemap mesh ${MESH_NAMES[i]} has an index out of range`);
    }
    meshes.push({ vertices, indices });
  }
  while (meshes.length < MESH_NAMES.length) meshes.push(emptyMesh());
  const [land, coast, borders, lakes, rivers, admin1] = meshes;
  return { x0, x1, y0, y1, land, coast, borders, lakes, rivers, admin1 };
}

/**
 * The 10m detail's index (public/generated/basemap/10m/index.json): one entry per region cell
 * file, with the extent its content covers in normalised Mercator (x unwrapped), so the worker
 * loads only the cells a view touches.
 */
export interface BasemapCellIndex {
  cells: { id: string; x0: number; x1: number; y0: number; y1: number }[];
}
