/**
 * The offline basemap binary: Natural Earth land, coastlines and borders (npm world-atlas),
 * projected to Web Mercator, triangulated and quantized at build time (assets/basemap/build.ts)
 * so the render worker uploads three meshes without any work of its own.
 *
 * Layout, version 1, little-endian:
 *
 *   offset  size  field
 *   0       4     magic 'I' 'S' 'B' 'M'
 *   4       2     version (u16) = 1
 *   6       2     reserved, 0
 *   8       4     x0 (f32)   quantized x maps to x0 + (x1 - x0) * q / 65535 (normalised Mercator;
 *   12      4     x1 (f32)   x runs past 0..1 where a polygon crosses the antimeridian)
 *   16      6*4   per mesh (land, coast, borders): vertex count (u32), index count (u32)
 *   40      ...   per mesh in that order: vertices u16 x 2 (x, y; y = q / 65535, 0 = 85.05° N),
 *                 then indices u16 (triangles for land, line pairs for coast and borders),
 *                 each section padded to 4 bytes.
 */

const BASEMAP_MAGIC = 0x4d425349; // 'ISBM'
const BASEMAP_VERSION = 1;
const HEADER_BYTES = 40;

export interface BasemapMesh {
  /** x, y pairs, quantized. */
  vertices: Uint16Array;
  indices: Uint16Array;
}

export interface Basemap {
  x0: number;
  x1: number;
  land: BasemapMesh;
  coast: BasemapMesh;
  borders: BasemapMesh;
}

class BasemapError extends Error {
  override name = 'BasemapError';
}

const pad4 = (n: number) => (n + 3) & ~3;

export function encodeBasemap(map: Basemap): Uint8Array {
  const meshes = [map.land, map.coast, map.borders];
  let size = HEADER_BYTES;
  for (const m of meshes) size += pad4(m.vertices.byteLength) + pad4(m.indices.byteLength);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, BASEMAP_MAGIC, true);
  view.setUint16(4, BASEMAP_VERSION, true);
  view.setFloat32(8, map.x0, true);
  view.setFloat32(12, map.x1, true);
  let p = HEADER_BYTES;
  meshes.forEach((m, i) => {
    view.setUint32(16 + i * 8, m.vertices.length / 2, true);
    view.setUint32(20 + i * 8, m.indices.length, true);
    bytes.set(new Uint8Array(m.vertices.buffer, m.vertices.byteOffset, m.vertices.byteLength), p);
    p += pad4(m.vertices.byteLength);
    bytes.set(new Uint8Array(m.indices.buffer, m.indices.byteOffset, m.indices.byteLength), p);
    p += pad4(m.indices.byteLength);
  });
  return bytes;
}

export function decodeBasemap(buffer: ArrayBuffer): Basemap {
  if (buffer.byteLength < HEADER_BYTES) throw new BasemapError('Basemap is truncated');
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== BASEMAP_MAGIC) throw new BasemapError('Data does not appear to be an Isobar basemap (bad magic bytes)');
  const version = view.getUint16(4, true);
  if (version !== BASEMAP_VERSION) throw new BasemapError(`Unsupported basemap version ${version}`);
  const x0 = view.getFloat32(8, true);
  const x1 = view.getFloat32(12, true);
  let p = HEADER_BYTES;
  const meshes: BasemapMesh[] = [];
  for (let i = 0; i < 3; i++) {
    const vertexCount = view.getUint32(16 + i * 8, true);
    const indexCount = view.getUint32(20 + i * 8, true);
    const vBytes = vertexCount * 4;
    const iBytes = indexCount * 2;
    if (p + pad4(vBytes) + pad4(iBytes) > buffer.byteLength) throw new BasemapError('Basemap is truncated');
    const vertices = new Uint16Array(buffer, p, vertexCount * 2);
    p += pad4(vBytes);
    const indices = new Uint16Array(buffer, p, indexCount);
    p += pad4(iBytes);
    for (let k = 0; k < indices.length; k++) {
      if (indices[k] >= vertexCount) throw new BasemapError(`Basemap mesh ${i} has an index out of range`);
    }
    meshes.push({ vertices, indices });
  }
  return { x0, x1, land: meshes[0], coast: meshes[1], borders: meshes[2] };
}
