/**
 * The typed wrapper around the engine's WASM module (engine/assembly). Runs in Node and in a
 * browser Worker: no DOM, no Node APIs. The module only computes; this class owns its linear
 * memory, lays out every region and validates every input before a kernel sees it.
 *
 *   linear memory, little-endian (regions: engine/assembly/index.ts; their insides: tile.ts,
 *   field.ts, particles.ts)
 *
 *   0 ... heapBase | tile input | texels | sample | allocations ............... | top | unused
 *                  '---------- fixed at create ---'  blocks, field, particles:
 *                                                   first-fit from a free list,
 *                                                   memory.grow when none fits
 *
 * - A decoded tile holds one block per channel: f32[65536] (256 KiB), the largest tile
 *   (TILE_NODES x TILE_NODES, common/tiling.ts). Larger tiles are refused.
 * - Texels (u8[w*h*4]) of the last decoded tile live in one scratch: read them with texels(handle)
 *   right after decodeTile; the next decodeTile overwrites them.
 * - contour and extrema take their regions (engine/assembly/isolines.ts) for the call only and
 *   return copies: nothing of theirs stays in linear memory.
 * - Every Float32Array / Float64Array / Int32Array / Uint8Array this class returns is a view into
 *   linear memory. memory.grow detaches the old buffer, so a view is only good until the next call
 *   that may allocate (decodeTile, blendTiles, setFieldGrid, initParticles): ask again each time.
 */

import {
  DataTileError, MAX_CHANNELS, readTileHeader, tileByteLength, type TileHeader,
} from '../common/tile.ts';
import { TILE_NODES } from '../common/tiling.ts';
import { PARTICLE_CAP, mercY, viewBounds, type View } from '../common/map.ts';
import { spawnLatitudeTable } from './spawn.ts';

export type Kernel = 'simd' | 'scalar';

/** f32 values per channel block: one channel of the largest tile. */
const BLOCK_FLOATS = TILE_NODES * TILE_NODES;
export const BLOCK_BYTES = BLOCK_FLOATS * 4;
/** Bytes of one texel (RGBA8) per node. */
const TEXEL_BYTES = 4;

const PAGE_BYTES = 65536;
const ALIGN = 16;
/** The decoder reads whole 8-node vectors and may read up to 14 bytes past a tile's q data. */
const TILE_INPUT_SLACK = 16;
const TILE_INPUT_BYTES = tileByteLength(MAX_CHANNELS, TILE_NODES, TILE_NODES) + TILE_INPUT_SLACK;
const SAMPLE_BYTES = 16;
/** Field descriptor: byte offsets of its fields, as drawn in engine/assembly/field.ts. */
const FIELD_DESCRIPTOR = {
  lon0: 0, lat0: 8, invDlon: 16, invDlat: 24, period: 32, invPeriod: 40, stride: 48, rows: 52, nodes: 56, rowCos: 60,
} as const;
const FIELD_DESCRIPTOR_BYTES = 64;
const FIELD_NODE_BYTES = 8;
/** Largest field we agree to allocate: 16 Mi nodes (128 MiB), far above a 0.25° global grid. */
const MAX_FIELD_NODES = 1 << 24;
/** Particle slot bytes (particles.ts): f64 lon + f64 lat + i32 age + f32[4] vertex + i32 respawn list. */
const PARTICLE_SLOT_BYTES = 40;
const DEG = Math.PI / 180;

/** The raw exports of engine/assembly/index.ts (bindings: raw; pointers are byte offsets). */
interface EngineExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  decodeTile(src: number, dst0: number, dst1: number, dst2: number, texels: number): void;
  blend(a: number, b: number, t: number, out: number, n: number): void;
  fieldWriteTile(
    field: number, a0: number, a1: number, b0: number, b1: number, t: number,
    tileWidth: number, tileHeight: number, x: number, y: number,
  ): void;
  fieldFinish(field: number): void;
  fieldSample(field: number, lon: number, lat: number, out: number): void;
  particlesInit(
    particles: number, count: number, seed: number, maxAge: number,
    centerLon: number, centerLat: number, west: number, east: number, yTop: number, yBottom: number,
  ): void;
  particlesStepSimd(
    particles: number, count: number, field: number,
    centerLon: number, centerLat: number, west: number, east: number, north: number, south: number, yTop: number, yBottom: number,
    speed: number, maxAge: number,
  ): void;
  particlesStepScalar(
    particles: number, count: number, field: number,
    centerLon: number, centerLat: number, west: number, east: number, north: number, south: number, yTop: number, yBottom: number,
    speed: number, maxAge: number,
  ): void;
  particlesSpawnTable(): number;
  particlesSpawnTableBytes(): number;
  isolinesPrepare(job: number): number;
  isolinesBucket(job: number): void;
  isolinesClassify(job: number): number;
  isolinesTrace(job: number): void;
  isolinesExtrema(values: number, nx: number, ny: number, radius: number, wrap: number, hi: number, lo: number, out: number, pad: number): number;
}

/** A decoded tile whose channels live in WASM memory until releaseTile. */
export interface DecodedTileHandle {
  readonly header: TileHeader;
  /** True once released: channel() then throws. */
  readonly released: boolean;
  /**
   * Channel c: width * height f32, row-major, row 0 north, NaN = no data. A fresh view each call
   * (memory may have grown since the last one).
   */
  channel(c: number): Float32Array;
}

/**
 * A regular lon/lat grid for the particle field. Node (i, j) lies at lon0 + i * dlon,
 * lat0 - j * dlat. With `wrap` the grid spans the globe in longitude: nx * dlon = 360, and the
 * engine stores one more column (a copy of column 0, see finishField).
 */
export interface FieldGrid {
  lon0: number;
  lat0: number;
  dlon: number;
  dlat: number;
  nx: number;
  ny: number;
  wrap: boolean;
}

export interface FieldTileParams {
  /** The earlier forecast step and the later one (may be the same handle); u, v channels. */
  a: DecodedTileHandle;
  b: DecodedTileHandle;
  /** Blend weight of b, 0..1. */
  t: number;
  /** Field column and row where the tile's node (0, 0) lands; the tile is clipped to the field. */
  x: number;
  y: number;
}

/**
 * The visible map: centerLon (any value) and the longitude bounds west < east in the same frame
 * (they may pass ±180); latitude bounds; the normalised Web Mercator y of the top and bottom
 * edges, y = 0.5 - ln((1 + sin φ) / (1 - sin φ)) / (4π) (common/map.ts mercY).
 */
export interface ParticleView {
  centerLon: number;
  /** View centre latitude: vertex latitudes are written relative to it. */
  centerLat: number;
  west: number;
  east: number;
  north: number;
  south: number;
  yTop: number;
  yBottom: number;
}

/** The particle view of a map camera (common/map.ts). */
export function particleView(view: View): ParticleView {
  const { west, east, north, south } = viewBounds(view);
  return { centerLon: view.lon, centerLat: view.lat, west, east, north, south, yTop: mercY(north), yBottom: mercY(south) };
}

export interface InitParticlesParams extends ParticleView {
  /** 0 .. PARTICLE_CAP (SPEC §9). */
  count: number;
  /** xorshift32 seed; 0 selects a fixed non-zero seed. */
  seed: number;
  /** Steps a particle lives; initial ages are spread over [0, maxAge). */
  maxAge: number;
}

export interface StepParticlesParams extends ParticleView {
  /** Degrees per (m/s) per step: pixels per step per (m/s) * 360 / world size in pixels. */
  speed: number;
  maxAge: number;
  kernel: Kernel;
}

/** Views of the particle state (SoA), for tests and the /debug readout. */
export interface ParticlePositions {
  /** Degrees, [-180, 180). */
  lon: Float64Array;
  lat: Float64Array;
  /** Steps since (re)spawn. */
  age: Int32Array;
}

/** A float32 grid to contour: nx * ny values, row-major, row 0 north (tiles, fields), NaN = missing. */
export interface ContourGrid {
  values: Float32Array;
  nx: number;
  ny: number;
  /** The columns go all the way round (a global field): the last column joins column 0. */
  wrap?: boolean;
}

export interface ContourParams extends ContourGrid {
  /** The values to draw lines at, in the field's unit (common/isolines.ts isolineLevels). */
  levels: ArrayLike<number>;
  /** One pass of the 1-2-1 filter over each line, ends kept (default true); false: raw crossings. */
  smooth?: boolean;
}

/** One polyline of `Contours.points`. */
export interface ContourLine {
  /** First vertex (index into points / 2) and the vertex count. */
  start: number;
  count: number;
  /** Index into the levels asked for. */
  level: number;
  /** A ring: the last vertex joins the first (which is not repeated). */
  closed: boolean;
  /**
   * 0, or for a ring around the globe (wrap grids only) +nx / -nx: the vertex after the last is
   * the first one shifted by this many columns.
   */
  xShift: number;
}

/**
 * Isolines in grid units: vertex k at (points[2k], points[2k + 1]) = (column, row), row 0 north.
 * With wrap, x is continuous along a line across the seam and may leave [0, nx) by whole turns
 * (x mod nx is the column). Lines of a level come in one run, levels by ascending value; the
 * direction of a line is unspecified. A copy: nothing stays in the engine's memory.
 */
export interface Contours {
  points: Float32Array;
  lines: ContourLine[];
}

export interface ExtremaParams extends ContourGrid {
  /** Half-width in nodes of the square a node must be the largest or smallest of (>= 1). */
  radius: number;
}

/** An H or L marker: a local maximum or minimum; a plateau gives one, at the middle of its nodes. */
export interface Extremum {
  kind: 'max' | 'min';
  /** Grid units, as Contours' points (x in [0, nx) for a wrap grid). */
  x: number;
  y: number;
  value: number;
}

/** Contour job descriptor: byte offsets, as drawn in engine/assembly/isolines.ts. */
const CONTOUR_JOB = {
  values: 0, nx: 4, ny: 8, flags: 12, cells: 16, lists: 20, offsets: 24, points: 28, pointCount: 32,
  lines: 36, lineCount: 40, smooth: 44, levels: 48, levelCount: 52, levelIndex: 56,
} as const;
/** Most (cell, level) crossings one call may list: 64 Mi (256 MiB of lists). */
const MAX_CONTOUR_CROSSINGS = 1 << 26;
const CONTOUR_JOB_BYTES = 64;
const CONTOUR_WRAP = 1;
const LINE_CLOSED = 1;
const LINE_AROUND_EAST = 2;
const LINE_AROUND_WEST = 4;
/** Ints per row of the lines table: first vertex, count, level index, flags. */
const LINE_INTS = 4;

function assertContourGrid({ values, nx, ny }: ContourGrid): void {
  if (!(values instanceof Float32Array)) throw new TypeError('Contour values must be a Float32Array');
  if (!Number.isInteger(nx) || !Number.isInteger(ny) || nx < 2 || ny < 2) {
    throw new RangeError(`Contour grid ${nx}x${ny} must be whole numbers of at least 2x2 nodes`);
  }
  if (nx * ny > MAX_FIELD_NODES) throw new RangeError(`Contour grid ${nx}x${ny} exceeds ${MAX_FIELD_NODES} nodes`);
  if (values.length !== nx * ny) throw new RangeError(`${values.length} values for a ${nx}x${ny} grid`);
}

function alignUp(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

/**
 * First-fit allocator over linear memory above the module's heap base. Free ranges are kept
 * sorted and coalesced, so the fixed-size channel blocks that tiles churn through are reused in
 * place, and a field or particle region of any size fits where one was freed. Memory grows only
 * when no free range fits.
 */
export class LinearAllocator {
  /** Free ranges [start, end), sorted by start, never touching each other or `top`. */
  private readonly freeRanges: { start: number; end: number }[] = [];
  private readonly sizes = new Map<number, number>();
  private top: number;

  constructor(private readonly memory: WebAssembly.Memory, base: number) {
    this.top = alignUp(base);
  }

  /** Returns a 16-byte aligned pointer to `bytes` bytes (contents unspecified). */
  alloc(bytes: number): number {
    if (!Number.isInteger(bytes) || bytes <= 0) throw new RangeError(`Cannot allocate ${bytes} bytes`);
    const size = alignUp(bytes);
    for (let i = 0; i < this.freeRanges.length; i++) {
      const range = this.freeRanges[i];
      if (range.end - range.start < size) continue;
      const ptr = range.start;
      range.start += size;
      if (range.start === range.end) this.freeRanges.splice(i, 1);
      this.sizes.set(ptr, size);
      return ptr;
    }
    const ptr = this.top;
    const end = ptr + size;
    const capacity = this.memory.buffer.byteLength;
    if (end > capacity) {
      const pages = Math.ceil((end - capacity) / PAGE_BYTES);
      try {
        this.memory.grow(pages);
      } catch (cause) {
        throw new RangeError(`Engine memory cannot grow by ${pages} pages to hold ${end} bytes`, { cause });
      }
    }
    this.top = end;
    this.sizes.set(ptr, size);
    return ptr;
  }

  release(ptr: number): void {
    const size = this.sizes.get(ptr);
    if (size === undefined) throw new Error(`Engine memory at ${ptr} is not allocated`);
    this.sizes.delete(ptr);
    let start = ptr;
    let end = ptr + size;
    let i = 0;
    while (i < this.freeRanges.length && this.freeRanges[i].start < start) i++;
    const before = this.freeRanges[i - 1];
    const after = this.freeRanges[i];
    if (after && after.start === end) {
      end = after.end;
      this.freeRanges.splice(i, 1);
    }
    if (before && before.end === start) {
      start = before.start;
      this.freeRanges.splice(i - 1, 1);
      i--;
    }
    if (end === this.top) this.top = start;
    else this.freeRanges.splice(i, 0, { start, end });
  }

  /** Bytes handed out and not yet released (rounded up to the alignment). */
  get liveBytes(): number {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    return total;
  }

  /** End of the highest allocation: memory above it is untouched. */
  get highWater(): number {
    return this.top;
  }
}

class TileHandle implements DecodedTileHandle {
  released = false;

  constructor(
    /** The engine's memory: it also tells which engine the handle belongs to. */
    readonly memory: WebAssembly.Memory,
    readonly header: TileHeader,
    /** One channel block pointer per channel. */
    readonly blocks: number[],
  ) {}

  channel(c: number): Float32Array {
    if (this.released) throw new Error('Decoded tile was released');
    if (!Number.isInteger(c) || c < 0 || c >= this.blocks.length) {
      throw new RangeError(`Tile has ${this.blocks.length} channels, no channel ${c}`);
    }
    return new Float32Array(this.memory.buffer, this.blocks[c], this.header.width * this.header.height);
  }
}

/** Byte offsets of the particle arrays in a region of `capacity` slots (particles.ts). */
function particleLayout(capacity: number): { lon: number; lat: number; age: number; vertex: number } {
  return { lon: 0, lat: capacity * 8, age: capacity * 16, vertex: capacity * 20 }; // respawn list at 36 cap
}

interface FieldState {
  grid: FieldGrid;
  /** Pointer to the descriptor; the nodes and row cosines follow it in the same allocation. */
  ptr: number;
  nodes: number;
  stride: number;
}

interface ParticleState {
  ptr: number;
  count: number;
  capacity: number;
}

/** True where this runtime validates WASM SIMD (v128); the engine module needs it. */
export function simdSupported(): boolean {
  // (module (func (result v128) v128.const i32x4 0 0 0 0))
  const probe = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0,
    253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
  ]);
  return WebAssembly.validate(probe);
}

export class Engine {
  /** Whether the SIMD particle kernel is available: always, since the module uses v128 throughout. */
  readonly simd = true;
  private readonly exports: EngineExports;
  private readonly memory: WebAssembly.Memory;
  private readonly allocator: LinearAllocator;
  private readonly tileInput: number;
  private readonly texelScratch: number;
  private readonly sampleScratch: number;
  private lastDecoded: TileHandle | null = null;
  private liveTiles = 0;
  private field: FieldState | null = null;
  private particles: ParticleState | null = null;

  /** Compiles nothing: give it the module from WebAssembly.compile / compileStreaming. */
  static async create(module: WebAssembly.Module): Promise<Engine> {
    const instance = await WebAssembly.instantiate(module, {
      env: {
        abort(_message: number, _file: number, line: number, column: number): never {
          throw new Error(`Engine WASM aborted at line ${line}:${column}`);
        },
      },
    });
    return new Engine(instance.exports as unknown as EngineExports);
  }

  private constructor(exports: EngineExports) {
    this.exports = exports;
    this.memory = exports.memory;
    this.allocator = new LinearAllocator(this.memory, exports.heapBase());
    this.tileInput = this.allocator.alloc(TILE_INPUT_BYTES);
    this.texelScratch = this.allocator.alloc(BLOCK_FLOATS * TEXEL_BYTES);
    this.sampleScratch = this.allocator.alloc(SAMPLE_BYTES);
    this.setSpawnTable(spawnLatitudeTable());
  }

  /**
   * Writes the spawn latitude table the kernels read (engine/spawn.ts): the Mercator one, written
   * at start, or the globe's sphereSpawnTable while the globe is shown.
   */
  setSpawnTable(table: Float64Array): void {
    const exports = this.exports;
    if (exports.particlesSpawnTableBytes() !== table.byteLength) {
      throw new Error(`Engine WASM expects a ${exports.particlesSpawnTableBytes()}-byte spawn table, engine/spawn.ts makes ${table.byteLength}`);
    }
    new Float64Array(this.memory.buffer, exports.particlesSpawnTable(), table.length).set(table);
  }

  /**
   * For decoders that bring their own kernels into this module (engine/grib): the raw exports,
   * the memory and this engine's allocator. A caller lays out its regions with alloc / release
   * and releases every one before it returns, so tiles and particles keep their memory.
   */
  extension(): { exports: WebAssembly.Exports; memory: WebAssembly.Memory; allocator: LinearAllocator } {
    return { exports: this.exports as unknown as WebAssembly.Exports, memory: this.memory, allocator: this.allocator };
  }

  /** Current size of linear memory in bytes. */
  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Memory state for the /debug readout and for leak tests. */
  stats(): { memoryBytes: number; liveBytes: number; highWater: number; tiles: number } {
    return {
      memoryBytes: this.memoryBytes,
      liveBytes: this.allocator.liveBytes,
      highWater: this.allocator.highWater,
      tiles: this.liveTiles,
    };
  }

  // ---- tiles ----

  /**
   * Validates the tile header (readTileHeader: DataTileError on bad magic, version, size...),
   * then decodes every channel into its own block and the texels into the texel scratch.
   */
  decodeTile(bytes: Uint8Array): DecodedTileHandle {
    const header = readTileHeader(bytes);
    if (header.width > TILE_NODES || header.height > TILE_NODES) {
      throw new DataTileError(
        `Data tile grid ${header.width}x${header.height} exceeds the engine's ${TILE_NODES}x${TILE_NODES} block`,
      );
    }
    const blocks: number[] = [];
    try {
      for (let c = 0; c < header.channels; c++) blocks.push(this.allocator.alloc(BLOCK_BYTES));
    } catch (error) {
      for (const block of blocks) this.allocator.release(block);
      throw error;
    }
    new Uint8Array(this.memory.buffer).set(bytes, this.tileInput);
    this.exports.decodeTile(this.tileInput, blocks[0], blocks[1] ?? 0, blocks[2] ?? 0, this.texelScratch);
    const handle = new TileHandle(this.memory, header, blocks);
    this.lastDecoded = handle;
    this.liveTiles++;
    return handle;
  }

  /**
   * Texels of the most recently decoded tile: width * height * 4 bytes, per node
   * (q0 >> 8, q0 & 255, q1 >> 8, q1 & 255) with the un-predicted q of channels 0 and 1 (channel 1
   * bytes are 0 in a one-channel tile). Valid until the next decodeTile; asking for an older
   * tile's texels throws.
   */
  texels(handle: DecodedTileHandle): Uint8Array {
    const tile = this.ownTile(handle);
    if (tile !== this.lastDecoded) {
      throw new Error('Texels are kept for the most recently decoded tile only: read them right after decodeTile');
    }
    return new Uint8Array(this.memory.buffer, this.texelScratch, tile.header.width * tile.header.height * TEXEL_BYTES);
  }

  /** Frees the tile's blocks; the handle (and views of it) must not be used afterwards. */
  releaseTile(handle: DecodedTileHandle): void {
    const tile = this.ownTile(handle);
    for (const block of tile.blocks) this.allocator.release(block);
    tile.released = true;
    this.liveTiles--;
    if (tile === this.lastDecoded) this.lastDecoded = null;
  }

  /**
   * A new tile with every channel blended in f32 as a * (1 - t) + b * t (the SIMD `blend`
   * kernel): t = 0 gives a exactly, t = 1 gives b. a and b must have the same grid and channels.
   * Texels are not produced. Release the result like a decoded tile.
   */
  blendTiles({ a, b, t }: { a: DecodedTileHandle; b: DecodedTileHandle; t: number }): DecodedTileHandle {
    const ta = this.ownTile(a);
    const tb = this.ownTile(b);
    assertSameGrid(ta.header, tb.header);
    if (ta.header.channels !== tb.header.channels) {
      throw new Error(`Cannot blend tiles with ${ta.header.channels} and ${tb.header.channels} channels`);
    }
    assertWeight(t);
    const n = ta.header.width * ta.header.height;
    const blocks: number[] = [];
    try {
      for (let c = 0; c < ta.header.channels; c++) blocks.push(this.allocator.alloc(BLOCK_BYTES));
    } catch (error) {
      for (const block of blocks) this.allocator.release(block);
      throw error;
    }
    for (let c = 0; c < blocks.length; c++) this.exports.blend(ta.blocks[c], tb.blocks[c], t, blocks[c], n);
    this.liveTiles++;
    return new TileHandle(this.memory, { ...ta.header, offsets: [...ta.header.offsets], scales: [...ta.header.scales] }, blocks);
  }

  private ownTile(handle: DecodedTileHandle): TileHandle {
    if (!(handle instanceof TileHandle) || handle.memory !== this.memory) {
      throw new Error('Not a tile handle of this engine');
    }
    if (handle.released) throw new Error('Decoded tile was released');
    return handle;
  }

  // ---- particle field ----

  /** (Re)allocates the field for `grid`, every node NaN until tiles are written. */
  setFieldGrid(grid: FieldGrid): void {
    const { lon0, lat0, dlon, dlat, nx, ny, wrap } = grid;
    if (![lon0, lat0, dlon, dlat].every(Number.isFinite) || !(dlon > 0) || !(dlat > 0)) {
      throw new RangeError(`Field grid needs finite lon0, lat0 and positive dlon, dlat: ${JSON.stringify(grid)}`);
    }
    if (!Number.isInteger(nx) || !Number.isInteger(ny) || nx < 2 || ny < 2) {
      throw new RangeError(`Field grid ${nx}x${ny} must be whole numbers of at least 2x2 nodes`);
    }
    if (lat0 > 90 + 1e-9 || lat0 - (ny - 1) * dlat < -90 - 1e-9) {
      throw new RangeError(`Field grid rows ${lat0}..${lat0 - (ny - 1) * dlat} leave -90..90`);
    }
    if (wrap && Math.abs(nx * dlon - 360) > 1e-9 * 360) {
      throw new RangeError(`A global (wrap) field needs nx * dlon = 360, not ${nx} * ${dlon} = ${nx * dlon}`);
    }
    const stride = wrap ? nx + 1 : nx;
    if (stride * ny > MAX_FIELD_NODES) {
      throw new RangeError(`Field grid ${stride}x${ny} exceeds ${MAX_FIELD_NODES} nodes`);
    }
    const nodeBytes = stride * ny * FIELD_NODE_BYTES;
    const ptr = this.allocator.alloc(FIELD_DESCRIPTOR_BYTES + nodeBytes + ny * 4);
    if (this.field) this.allocator.release(this.field.ptr);
    const nodes = ptr + FIELD_DESCRIPTOR_BYTES;
    const rowCos = nodes + nodeBytes;
    const descriptor = new DataView(this.memory.buffer, ptr, FIELD_DESCRIPTOR_BYTES);
    descriptor.setFloat64(FIELD_DESCRIPTOR.lon0, lon0, true);
    descriptor.setFloat64(FIELD_DESCRIPTOR.lat0, lat0, true);
    descriptor.setFloat64(FIELD_DESCRIPTOR.invDlon, 1 / dlon, true);
    descriptor.setFloat64(FIELD_DESCRIPTOR.invDlat, 1 / dlat, true);
    // gx wraps by one turn of columns (nx for a global grid), so a longitude written in any
    // 360° frame finds its column; a regional grid then tests gx against its own extent.
    descriptor.setFloat64(FIELD_DESCRIPTOR.period, wrap ? nx : 360 / dlon, true);
    descriptor.setFloat64(FIELD_DESCRIPTOR.invPeriod, wrap ? 1 / nx : dlon / 360, true);
    descriptor.setInt32(FIELD_DESCRIPTOR.stride, stride, true);
    descriptor.setInt32(FIELD_DESCRIPTOR.rows, ny, true);
    descriptor.setUint32(FIELD_DESCRIPTOR.nodes, nodes, true);
    descriptor.setUint32(FIELD_DESCRIPTOR.rowCos, rowCos, true);
    new Float32Array(this.memory.buffer, nodes, nodeBytes / 4).fill(NaN);
    const cosines = new Float32Array(this.memory.buffer, rowCos, ny);
    for (let j = 0; j < ny; j++) cosines[j] = Math.cos((lat0 - j * dlat) * DEG);
    this.field = { grid: { ...grid }, ptr, nodes, stride };
  }

  /** The current field grid, or null before setFieldGrid. */
  get fieldGrid(): FieldGrid | null {
    return this.field ? { ...this.field.grid } : null;
  }

  /**
   * Blends tile a and b (2 channels u, v, same grid and node spacing as the field) at t and
   * writes [u, v * cos φ] into the field with the tile's node (0, 0) at column x, row y, clipped.
   */
  writeFieldTile({ a, b, t, x, y }: FieldTileParams): void {
    const field = this.requireField();
    const ta = this.ownTile(a);
    const tb = this.ownTile(b);
    assertSameGrid(ta.header, tb.header);
    for (const tile of [ta, tb]) {
      if (tile.header.channels !== 2) {
        throw new Error(`Field tiles hold 2 channels (u, v), this one has ${tile.header.channels}`);
      }
    }
    assertWeight(t);
    if (!Number.isInteger(x) || !Number.isInteger(y)) throw new RangeError(`Tile position ${x}, ${y} must be whole nodes`);
    const { width, height, west, east, north, south } = ta.header;
    const tileDlon = (east - west) / (width - 1);
    const tileDlat = (north - south) / (height - 1);
    const { dlon, dlat } = field.grid;
    if (Math.abs(tileDlon - dlon) > 1e-6 * dlon || Math.abs(tileDlat - dlat) > 1e-6 * dlat) {
      throw new Error(`Tile node spacing ${tileDlon}° x ${tileDlat}° differs from the field's ${dlon}° x ${dlat}°`);
    }
    this.exports.fieldWriteTile(field.ptr, ta.blocks[0], ta.blocks[1], tb.blocks[0], tb.blocks[1], t, width, height, x, y);
  }

  /** Copies column 0 into the wrap column of a global field; call after the last writeFieldTile. */
  finishField(): void {
    this.exports.fieldFinish(this.requireField().ptr);
  }

  /** Bilinear [U, V] at a point (U = u, V = v cos φ); NaN outside the grid or next to a NaN node. */
  sampleField({ lon, lat }: { lon: number; lat: number }): [number, number] {
    this.exports.fieldSample(this.requireField().ptr, lon, lat, this.sampleScratch);
    const out = new Float64Array(this.memory.buffer, this.sampleScratch, 2);
    return [out[0], out[1]];
  }

  /** The field's nodes: [U, V] f32 pairs, `stride` nodes per row (nx, + 1 when global), row 0 north. */
  fieldNodes(): { nodes: Float32Array; stride: number } {
    const field = this.requireField();
    return { nodes: new Float32Array(this.memory.buffer, field.nodes, field.stride * field.grid.ny * 2), stride: field.stride };
  }

  private requireField(): FieldState {
    if (!this.field) throw new Error('No particle field: call setFieldGrid first');
    return this.field;
  }

  // ---- particles ----

  /** (Re)creates `count` particles spread over the view with ages in [0, maxAge). */
  initParticles(params: InitParticlesParams): void {
    const { count, seed, maxAge } = params;
    if (!Number.isInteger(count) || count < 0 || count > PARTICLE_CAP) {
      throw new RangeError(`Particle count ${count} must be a whole number from 0 to ${PARTICLE_CAP}`);
    }
    if (!Number.isInteger(seed)) throw new RangeError(`Particle seed ${seed} must be an integer`);
    assertMaxAge(maxAge);
    assertView(params);
    const capacity = Math.ceil(count / 4) * 4; // as particles.ts: arrays 16-byte aligned
    if (!this.particles || this.particles.capacity !== capacity) {
      const ptr = this.allocator.alloc(Math.max(ALIGN, capacity * PARTICLE_SLOT_BYTES));
      if (this.particles) this.allocator.release(this.particles.ptr);
      this.particles = { ptr, count, capacity };
    }
    this.particles.count = count;
    const { centerLon, centerLat, west, east, yTop, yBottom } = params;
    this.exports.particlesInit(this.particles.ptr, count, seed >>> 0, maxAge, centerLon, centerLat, west, east, yTop, yBottom);
  }

  /** One RK2 step of every particle; respawns those that age out, leave the view or hit no data. */
  stepParticles(params: StepParticlesParams): void {
    const field = this.requireField();
    const particles = this.requireParticles();
    const { centerLon, centerLat, west, east, north, south, yTop, yBottom, speed, maxAge, kernel } = params;
    if (!Number.isFinite(speed)) throw new RangeError(`Particle speed ${speed} must be finite`);
    assertMaxAge(maxAge);
    assertView(params);
    const step = kernel === 'simd' ? this.exports.particlesStepSimd
      : kernel === 'scalar' ? this.exports.particlesStepScalar
        : null;
    if (!step) throw new RangeError(`Unknown particle kernel ${String(kernel)}: 'simd' or 'scalar'`);
    step(particles.ptr, particles.count, field.ptr, centerLon, centerLat, west, east, north, south, yTop, yBottom, speed, maxAge);
  }

  get particleCount(): number {
    return this.particles?.count ?? 0;
  }

  /** count * 4 f32: per particle [prevRelLon, prevRelLat, newRelLon, newRelLat] (see particles.ts). */
  vertices(): Float32Array {
    const p = this.requireParticles();
    return new Float32Array(this.memory.buffer, p.ptr + particleLayout(p.capacity).vertex, p.count * 4);
  }

  positions(): ParticlePositions {
    const p = this.requireParticles();
    const buffer = this.memory.buffer;
    const layout = particleLayout(p.capacity);
    return {
      lon: new Float64Array(buffer, p.ptr + layout.lon, p.count),
      lat: new Float64Array(buffer, p.ptr + layout.lat, p.count),
      age: new Int32Array(buffer, p.ptr + layout.age, p.count),
    };
  }

  private requireParticles(): ParticleState {
    if (!this.particles) throw new Error('No particles: call initParticles first');
    return this.particles;
  }

  // ---- isolines ----

  /**
   * Isolines of a grid at each level (engine/assembly/isolines.ts: marching squares, saddles by
   * the cell-centre mean, vertices by linear interpolation on the edges, segments traced into
   * polylines, open at the border or a NaN, rings flagged closed), copied out of the engine.
   */
  contour(params: ContourParams): Contours {
    assertContourGrid(params);
    const { values, nx, ny, levels } = params;
    const wrap = params.wrap ?? false;
    const smooth = params.smooth ?? true;
    for (let k = 0; k < levels.length; k++) {
      if (!Number.isFinite(levels[k])) throw new RangeError(`Contour level ${k} is ${levels[k]}: levels must be finite`);
    }
    const cellCount = (wrap ? nx : nx - 1) * (ny - 1);
    // The kernel takes the levels ascending; the lines table names them by their place in `levels`.
    const order = Array.from({ length: levels.length }, (_, k) => k).sort((a, b) => levels[a] - levels[b]);
    const regions = new EngineRegions(this.extension());
    const output = { points: 0, pointCapacity: 0, lines: 0, lineCapacity: 0 };
    try {
      if (levels.length === 0) return { points: new Float32Array(0), lines: [] };
      const job = regions.alloc(CONTOUR_JOB_BYTES);
      const valuesPtr = regions.alloc(values.byteLength);
      const cells = regions.alloc(cellCount);
      const levelsPtr = regions.alloc(levels.length * 8);
      const offsets = regions.alloc((levels.length + 1) * 8);
      new Float32Array(this.memory.buffer, valuesPtr, values.length).set(values);
      new Float64Array(this.memory.buffer, levelsPtr, levels.length).set(order.map((k) => levels[k]));
      new Int32Array(this.memory.buffer, offsets, (levels.length + 1) * 2).fill(0);
      let d = new DataView(this.memory.buffer, job, CONTOUR_JOB_BYTES);
      d.setUint32(CONTOUR_JOB.values, valuesPtr, true);
      d.setInt32(CONTOUR_JOB.nx, nx, true);
      d.setInt32(CONTOUR_JOB.ny, ny, true);
      d.setInt32(CONTOUR_JOB.flags, wrap ? CONTOUR_WRAP : 0, true);
      d.setUint32(CONTOUR_JOB.cells, cells, true);
      d.setUint32(CONTOUR_JOB.offsets, offsets, true);
      d.setUint32(CONTOUR_JOB.levels, levelsPtr, true);
      d.setInt32(CONTOUR_JOB.levelCount, levels.length, true);
      d.setInt32(CONTOUR_JOB.pointCount, 0, true);
      d.setInt32(CONTOUR_JOB.lineCount, 0, true);
      d.setInt32(CONTOUR_JOB.smooth, smooth ? 1 : 0, true);
      const crossings = this.exports.isolinesPrepare(job);
      if (crossings > MAX_CONTOUR_CROSSINGS) {
        throw new RangeError(`${levels.length} levels cross ${crossings} cells of the ${nx}x${ny} grid: at most ${MAX_CONTOUR_CROSSINGS}`);
      }
      const lists = regions.alloc(crossings * 4);
      d = new DataView(this.memory.buffer, job, CONTOUR_JOB_BYTES);
      d.setUint32(CONTOUR_JOB.lists, lists, true);
      this.exports.isolinesBucket(job);
      for (let k = 0; k < levels.length; k++) {
        d.setInt32(CONTOUR_JOB.levelIndex, k, true);
        const bound = this.exports.isolinesClassify(job);
        if (bound === 0) continue;
        const points = d.getInt32(CONTOUR_JOB.pointCount, true);
        const lines = d.getInt32(CONTOUR_JOB.lineCount, true);
        // Room for the level's vertices (at most `bound`) and lines (2 vertices each at least).
        if (points + bound > output.pointCapacity || lines + bound / 2 > output.lineCapacity) {
          this.growContourOutput(output, points, lines, Math.max(2 * output.pointCapacity, points + bound), Math.max(2 * output.lineCapacity, lines + bound / 2));
          d = new DataView(this.memory.buffer, job, CONTOUR_JOB_BYTES);
          d.setUint32(CONTOUR_JOB.points, output.points, true);
          d.setUint32(CONTOUR_JOB.lines, output.lines, true);
        }
        this.exports.isolinesTrace(job);
      }
      const pointCount = d.getInt32(CONTOUR_JOB.pointCount, true);
      const lineCount = d.getInt32(CONTOUR_JOB.lineCount, true);
      const points = pointCount ? new Float32Array(this.memory.buffer, output.points, pointCount * 2).slice() : new Float32Array(0);
      const table = lineCount ? new Int32Array(this.memory.buffer, output.lines, lineCount * LINE_INTS) : new Int32Array(0);
      const lines: ContourLine[] = [];
      for (let l = 0; l < lineCount; l++) {
        const flags = table[l * LINE_INTS + 3];
        lines.push({
          start: table[l * LINE_INTS],
          count: table[l * LINE_INTS + 1],
          level: order[table[l * LINE_INTS + 2]],
          closed: (flags & LINE_CLOSED) !== 0,
          xShift: flags & LINE_AROUND_EAST ? nx : flags & LINE_AROUND_WEST ? -nx : 0,
        });
      }
      return { points, lines };
    } finally {
      if (output.points) this.allocator.release(output.points);
      if (output.lines) this.allocator.release(output.lines);
      regions.releaseAll();
    }
  }

  /** Moves the contour output to larger regions, keeping what is written. */
  private growContourOutput(
    output: { points: number; pointCapacity: number; lines: number; lineCapacity: number },
    pointsUsed: number, linesUsed: number, pointCapacity: number, lineCapacity: number,
  ): void {
    const points = this.allocator.alloc(pointCapacity * 8);
    let lines: number;
    try {
      lines = this.allocator.alloc(Math.ceil(lineCapacity) * LINE_INTS * 4);
    } catch (error) {
      this.allocator.release(points);
      throw error;
    }
    const heap = new Uint8Array(this.memory.buffer);
    if (output.points) {
      heap.copyWithin(points, output.points, output.points + pointsUsed * 8);
      heap.copyWithin(lines, output.lines, output.lines + linesUsed * LINE_INTS * 4);
      this.allocator.release(output.points);
      this.allocator.release(output.lines);
    }
    output.points = points;
    output.pointCapacity = pointCapacity;
    output.lines = lines;
    output.lineCapacity = Math.ceil(lineCapacity);
  }

  /**
   * H and L markers: nodes no value of the (2 radius + 1)² square around them exceeds (maxima) or
   * undercuts (minima), the square not flat; nodes whose square the border cuts are left out (the
   * seam of a wrap grid is no border). Equal candidates within the radius of each other (a
   * plateau) give one marker at the mean of their positions. Maxima first, then minima, each in
   * row-major order of their first node.
   */
  extrema(params: ExtremaParams): Extremum[] {
    assertContourGrid(params);
    const { values, nx, ny, radius } = params;
    const wrap = params.wrap ?? false;
    if (!Number.isInteger(radius) || radius < 1 || 2 * radius + 1 > (wrap ? ny : Math.min(nx, ny))) {
      throw new RangeError(`Extrema radius ${radius} must be a whole number >= 1 whose square fits the ${nx}x${ny} grid`);
    }
    const regions = new EngineRegions(this.extension());
    try {
      const n = nx * ny;
      const valuesPtr = regions.alloc(n * 4);
      const hi = regions.alloc(n * 4);
      const lo = regions.alloc(n * 4);
      const out = regions.alloc(n * 4);
      const pad = regions.alloc(2 * (nx + 2 * radius + 4) * 4);
      new Float32Array(this.memory.buffer, valuesPtr, n).set(values);
      const count = this.exports.isolinesExtrema(valuesPtr, nx, ny, radius, wrap ? 1 : 0, hi, lo, out, pad);
      const candidates = new Int32Array(this.memory.buffer, out, count).slice();
      return [...groupExtrema(candidates, values, nx, radius, wrap, 'max'), ...groupExtrema(candidates, values, nx, radius, wrap, 'min')];
    } finally {
      regions.releaseAll();
    }
  }
}

/**
 * One marker per group of equal candidates of a kind lying within `radius` nodes of each other
 * (Chebyshev distance, across the seam of a wrap grid): a plateau's nodes, or two equal peaks the
 * square could not tell apart. The marker sits at the mean of the group's positions.
 */
function groupExtrema(candidates: Int32Array, values: Float32Array, nx: number, radius: number, wrap: boolean, kind: 'max' | 'min'): Extremum[] {
  const nodes: number[] = [];
  for (const c of candidates) if ((c >= 0) === (kind === 'max')) nodes.push(c >= 0 ? c : -1 - c);
  const parent = nodes.map((_, k) => k);
  const root = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]];
    return k;
  };
  const byValue = new Map<number, number[]>();
  nodes.forEach((node, k) => {
    const same = byValue.get(values[node]);
    if (same) same.push(k);
    else byValue.set(values[node], [k]);
  });
  const dx = (a: number, b: number): number => {
    const d = Math.abs((a % nx) - (b % nx));
    return wrap ? Math.min(d, nx - d) : d;
  };
  for (const group of byValue.values()) {
    for (let p = 0; p < group.length; p++) {
      for (let q = p + 1; q < group.length; q++) {
        const a = nodes[group[p]];
        const b = nodes[group[q]];
        if (dx(a, b) <= radius && Math.abs(Math.floor(a / nx) - Math.floor(b / nx)) <= radius) parent[root(group[q])] = root(group[p]);
      }
    }
  }
  const markers = new Map<number, { sx: number; sy: number; n: number; first: number }>();
  nodes.forEach((node, k) => {
    const r = root(k);
    let m = markers.get(r);
    if (!m) markers.set(r, (m = { sx: 0, sy: 0, n: 0, first: node }));
    let x = node % nx;
    // Positions of a group across the seam are taken on the side of its first node.
    if (wrap) x += nx * Math.round(((m.first % nx) - x) / nx);
    m.sx += x;
    m.sy += Math.floor(node / nx);
    m.n++;
  });
  return [...markers.values()].map((m) => {
    const x = m.sx / m.n;
    return { kind, x: wrap ? ((x % nx) + nx) % nx : x, y: m.sy / m.n, value: values[m.first] };
  });
}

function assertSameGrid(a: TileHeader, b: TileHeader): void {
  if (a.width !== b.width || a.height !== b.height || a.west !== b.west || a.east !== b.east
    || a.north !== b.north || a.south !== b.south) {
    throw new Error('Tiles a and b must cover the same grid');
  }
}

function assertWeight(t: number): void {
  if (!(t >= 0 && t <= 1)) throw new RangeError(`Blend weight t = ${t} must be within 0..1`);
}

function assertMaxAge(maxAge: number): void {
  if (!Number.isInteger(maxAge) || maxAge < 1) throw new RangeError(`Particle maxAge ${maxAge} must be a whole number >= 1`);
}

function assertView(view: ParticleView): void {
  const { centerLon, centerLat, west, east, north, south, yTop, yBottom } = view;
  if (![centerLon, centerLat, west, east, north, south, yTop, yBottom].every(Number.isFinite)) {
    throw new RangeError('Particle view bounds must be finite');
  }
  if (!(east > west) || !(north > south) || !(yBottom > yTop)) {
    throw new RangeError(`Particle view needs west < east, south < north, yTop < yBottom: ${JSON.stringify(view)}`);
  }
}

/**
 * The regions of one piece of work in the engine's memory (a GRIB decode, a codec call): allocated
 * with the engine's allocator, released together. Memory may grow on any alloc, so views into it are
 * made after the last alloc of a step.
 */
export class EngineRegions {
  readonly exports: WebAssembly.Exports;
  readonly memory: WebAssembly.Memory;
  private readonly allocator: LinearAllocator;
  private readonly pointers: number[] = [];

  constructor(parts: { exports: WebAssembly.Exports; memory: WebAssembly.Memory; allocator: LinearAllocator }) {
    ({ exports: this.exports, memory: this.memory, allocator: this.allocator } = parts);
  }

  alloc(bytes: number): number {
    const ptr = this.allocator.alloc(Math.max(bytes, 1));
    this.pointers.push(ptr);
    return ptr;
  }

  /** Copies `data` in, followed by `slack` zero bytes. */
  copyIn(data: Uint8Array, slack: number): number {
    const ptr = this.alloc(data.length + slack);
    const heap = new Uint8Array(this.memory.buffer);
    heap.set(data, ptr);
    heap.fill(0, ptr + data.length, ptr + data.length + slack);
    return ptr;
  }

  releaseAll(): void {
    for (const ptr of this.pointers) this.allocator.release(ptr);
    this.pointers.length = 0;
  }
}
