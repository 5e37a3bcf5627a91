/**
 * Radar frames as a tile source (SPEC §1 radar): a step of the radar timeline (common/radar.ts
 * radarSteps) is one frame of each provider; a tile of the step is their tiles merged by the
 * maximum dBZ, where the providers overlap (a border region seen by two national networks).
 *
 * A frame lists the tiles it has (`tiles`); one it lacks has no echo there, so it is not fetched.
 * A tile no frame of the step has is an empty tile made here, and one that only one frame has is
 * that frame's tile: both keep the same cache key across the steps that share them, so an
 * animation over a provider's 5-minute frame does not load it again for each 2-minute step.
 */

import { obsFilePath } from '../../common/api/obs.ts';
import { RADAR_DBZ_QUANTIZATION, radarTilePath, type RadarFrame, type RadarStep } from '../../common/radar.ts';
import { decodeDataTile, NO_DATA, packDataTile, Predictor } from '../../common/tile.ts';
import { TILE_NODES, tileBounds, type TileAddress } from '../../common/tiling.ts';
import { TileLoadError, type TileRequest, type TileSource } from './tileSource.ts';

const { offset: Q_OFFSET, scale: Q_SCALE } = RADAR_DBZ_QUANTIZATION;

/** A tile without echo: every node NO_DATA. */
export function emptyRadarTile(address: TileAddress): Uint8Array {
  return packDataTile({
    ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
    channels: [{ offset: Q_OFFSET, scale: Q_SCALE, q: new Uint16Array(TILE_NODES * TILE_NODES).fill(NO_DATA) }],
  });
}

/** Radar tiles of the same address merged node by node by the maximum dBZ (no data where none has an echo). */
export function mergeRadarTiles(address: TileAddress, tiles: readonly Uint8Array[]): Uint8Array {
  if (tiles.length === 1) return tiles[0];
  const q = new Uint16Array(TILE_NODES * TILE_NODES).fill(NO_DATA);
  for (const bytes of tiles) {
    const { header, channels } = decodeDataTile(bytes);
    if (header.width !== TILE_NODES || header.height !== TILE_NODES) throw new TileLoadError(`radar tile ${header.width}x${header.height} is not ${TILE_NODES}x${TILE_NODES}`);
    const values = channels[0];
    for (let k = 0; k < q.length; k++) {
      const v = values[k];
      if (v !== v) continue;
      const qv = Math.round((v - Q_OFFSET) / Q_SCALE);
      if (q[k] === NO_DATA || qv > q[k]) q[k] = qv;
    }
  }
  return packDataTile({ ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta, channels: [{ offset: Q_OFFSET, scale: Q_SCALE, q }] });
}

export class RadarTileSource implements TileSource {
  private readonly steps = new Map<number, RadarStep>();
  private readonly tileSets = new Map<RadarFrame, Set<string>>();

  constructor(
    private readonly origin: string,
    steps: readonly RadarStep[],
    /** A subscriber's bearer token: frames past the free window are served to Premium only (server/obs/radar/access.ts). */
    private readonly token: string | null,
  ) {
    for (const step of steps) this.steps.set(step.time, step);
  }

  /** The frames of the step that have a tile at the address. */
  private framesWith(validTime: number, { z, x, y }: TileAddress): RadarFrame[] {
    const step = this.steps.get(validTime);
    if (!step) throw new TileLoadError(`No radar frame at ${new Date(validTime).toISOString()}`);
    const key = `${z}/${x}/${y}`;
    return step.frames.filter((f) => {
      let set = this.tileSets.get(f);
      if (!set) this.tileSets.set(f, (set = new Set(f.tiles)));
      return set.has(key);
    });
  }

  private url(frame: RadarFrame, { z, x, y }: TileAddress): string {
    return this.origin + obsFilePath('radar', `${frame.leadMinutes === undefined ? 'frames' : 'nowcast'}/${frame.id}/${radarTilePath(z, x, y)}`);
  }

  key({ validTime, address }: TileRequest): string {
    const frames = this.framesWith(validTime, address);
    if (frames.length === 0) return `${this.origin}${obsFilePath('radar', `empty/${radarTilePath(address.z, address.x, address.y)}`)}`;
    return frames.map((f) => this.url(f, address)).join(' ');
  }

  async load({ validTime, address }: TileRequest, signal: AbortSignal): Promise<Uint8Array> {
    const frames = this.framesWith(validTime, address);
    if (frames.length === 0) return emptyRadarTile(address);
    const tiles = await Promise.all(frames.map(async (frame) => {
      const url = this.url(frame, address);
      const response = await fetch(url, this.token ? { signal, headers: { Authorization: `Bearer ${this.token}` } } : { signal });
      if (!response.ok) throw new TileLoadError(`HTTP ${response.status} for ${url}`);
      return new Uint8Array(await response.arrayBuffer());
    }));
    return mergeRadarTiles(address, tiles);
  }
}
