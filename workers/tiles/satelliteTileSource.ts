/**
 * Satellite frames as a tile source (SPEC §1 satellite): a step of the satellite timeline
 * (common/satellite.ts satelliteSteps) is the newest frame of each satellite; a tile of the step is
 * their tiles (`frames/{id}/{z}/{x}/{y}.tile`, channels ir and composite) made into the overlay's
 * two channels (common/catalogue RENDER_LAYERS.satellite): 0 the composite brightness the raster
 * draws in grey, 1 the infrared brightness temperature the picker shows.
 *
 * Where two satellites see a place, the node is taken from the one whose sub-satellite longitude is
 * nearer (the smaller viewing angle, the less distorted picture). A tile no frame of the step has is
 * off every disk: an empty tile made here (every node no data, so nothing is drawn there), fetched
 * from nowhere. A tile only one frame has keeps that frame's URL as its key, so steps sharing the
 * frame share the cached tile.
 *
 * Data zooms stop at SATELLITE_DATA_MAX_ZOOM (SATELLITE_PRODUCT caps the planner there; the map
 * over-zooms the tiles above): a request above it is refused, never fetched.
 */

import { obsFilePath } from '../../common/api/obs.ts';
import { SATELLITE_CHANNELS, SATELLITE_DATA_MAX_ZOOM, satelliteTilePath, type SatelliteFrame, type SatelliteStep } from '../../common/satellite.ts';
import { decodeDataTile, NO_DATA, packDataTile, Predictor } from '../../common/tile.ts';
import { TILE_NODES, tileBounds, type TileAddress } from '../../common/tiling.ts';
import { TileLoadError, type TileRequest, type TileSource } from './tileSource.ts';

const [IR_Q, COMPOSITE_Q] = SATELLITE_CHANNELS;
const N = TILE_NODES * TILE_NODES;

function pack(address: TileAddress, composite: Uint16Array, ir: Uint16Array): Uint8Array {
  return packDataTile({
    ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
    channels: [{ offset: COMPOSITE_Q.offset, scale: COMPOSITE_Q.scale, q: composite }, { offset: IR_Q.offset, scale: IR_Q.scale, q: ir }],
  });
}

/** A tile off every satellite's disk: every node no data. */
export function emptySatelliteTile(address: TileAddress): Uint8Array {
  const none = new Uint16Array(N).fill(NO_DATA);
  return pack(address, none, none);
}

/** Angular distance between two longitudes, degrees (0..180). */
function lonDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/**
 * Published satellite tiles of one address (channels ir, composite) as the overlay's tile
 * (composite, ir): node by node from the tile whose satellite (sub-satellite longitude `lon0`)
 * is nearest in longitude among those with a picture there.
 */
export function satelliteOverlayTile(address: TileAddress, tiles: readonly { bytes: Uint8Array; lon0: number }[]): Uint8Array {
  const composite = new Uint16Array(N).fill(NO_DATA);
  const ir = new Uint16Array(N).fill(NO_DATA);
  const decoded = tiles.map(({ bytes, lon0 }) => {
    const { header, channels } = decodeDataTile(bytes);
    if (header.width !== TILE_NODES || header.height !== TILE_NODES || header.channels !== 2) {
      throw new TileLoadError(`satellite tile ${header.width}x${header.height} with ${header.channels} channels is not ${TILE_NODES}x${TILE_NODES} with 2 (ir, composite)`);
    }
    return { channels, lon0 };
  });
  const { west, east } = tileBounds(address);
  const step = (east - west) / (TILE_NODES - 1);
  // Per column: the tiles in order of nearness to their satellite.
  for (let i = 0; i < TILE_NODES; i++) {
    const lon = west + i * step;
    const order = decoded.length === 1 ? decoded : [...decoded].sort((a, b) => lonDistance(lon, a.lon0) - lonDistance(lon, b.lon0));
    for (let j = 0; j < TILE_NODES; j++) {
      const k = j * TILE_NODES + i;
      for (const { channels } of order) {
        const c = channels[1][k];
        const t = channels[0][k];
        if (c !== c && t !== t) continue;
        if (c === c) composite[k] = Math.round((c - COMPOSITE_Q.offset) / COMPOSITE_Q.scale);
        if (t === t) ir[k] = Math.round((t - IR_Q.offset) / IR_Q.scale);
        break;
      }
    }
  }
  return pack(address, composite, ir);
}

export class SatelliteTileSource implements TileSource {
  private readonly steps = new Map<number, SatelliteStep>();
  private readonly tileSets = new Map<SatelliteFrame, Set<string>>();

  constructor(
    private readonly origin: string,
    steps: readonly SatelliteStep[],
    /** Sub-satellite longitude of each source (info.json `sources`), which picks the satellite where two overlap. */
    private readonly lon0: Readonly<Record<string, number>>,
    /** A subscriber's bearer token: frames past the free history are served to Premium only (server/obs/satellite/access.ts). */
    private readonly token: string | null,
  ) {
    for (const step of steps) this.steps.set(step.time, step);
  }

  /** The frames of the step that have a tile at the address. */
  private framesWith(validTime: number, address: TileAddress): SatelliteFrame[] {
    const { z, x, y } = address;
    if (z > SATELLITE_DATA_MAX_ZOOM) throw new TileLoadError(`Satellite tiles stop at data zoom ${SATELLITE_DATA_MAX_ZOOM}, not ${z}`);
    const step = this.steps.get(validTime);
    if (!step) throw new TileLoadError(`No satellite frame at ${new Date(validTime).toISOString()}`);
    const key = `${z}/${x}/${y}`;
    return step.frames.filter((f) => {
      let set = this.tileSets.get(f);
      if (!set) this.tileSets.set(f, (set = new Set(f.tiles)));
      return set.has(key);
    });
  }

  private url(frame: SatelliteFrame, { z, x, y }: TileAddress): string {
    return this.origin + obsFilePath('satellite', `frames/${frame.id}/${satelliteTilePath(z, x, y)}`);
  }

  key({ validTime, address }: TileRequest): string {
    const frames = this.framesWith(validTime, address);
    if (frames.length === 0) return `${this.origin}${obsFilePath('satellite', `empty/${satelliteTilePath(address.z, address.x, address.y)}`)}`;
    return frames.map((f) => this.url(f, address)).join(' ');
  }

  async load({ validTime, address }: TileRequest, signal: AbortSignal): Promise<Uint8Array> {
    const frames = this.framesWith(validTime, address);
    if (frames.length === 0) return emptySatelliteTile(address);
    const tiles = await Promise.all(frames.map(async (frame) => {
      const url = this.url(frame, address);
      const response = await fetch(url, this.token ? { signal, headers: { Authorization: `Bearer ${this.token}` } } : { signal });
      if (!response.ok) throw new TileLoadError(`HTTP ${response.status} for ${url}`);
      return { bytes: new Uint8Array(await response.arrayBuffer()), lon0: this.lon0[frame.source] ?? 0 };
    }));
    return satelliteOverlayTile(address, tiles);
  }
}
