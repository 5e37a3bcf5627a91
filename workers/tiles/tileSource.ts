/**
 * Where a layer's data tiles come from. The render worker asks a source for a tile by what it is
 * (file, level, valid time, address) and gets the tile's bytes (common/tile.ts); the source names
 * each tile with a key, unique across sources, which is the tile cache's key and what an error about
 * the tile names (SPEC §8 'Failed to load tile' plus the url).
 *
 *   HttpTileSource   the server's tile route (SPEC §7, common/api/tiles.ts); the key is the URL.
 *   LocalTileSource  a GRIB file opened in the browser (local/localGrib.ts): tiles made here, no HTTP.
 *
 * Radar and satellite frames will be further sources.
 */

import { tilePath } from '../../common/api/tiles.ts';
import { hourStamp } from '../../common/minifest.ts';
import type { Product } from '../../common/catalogue/products.ts';
import type { TileAddress } from '../../common/tiling.ts';
import type { LocalGribProduct } from '../local/localGrib.ts';

export interface TileRequest {
  file: string;
  level: string;
  validTime: number;
  address: TileAddress;
  /** Accumulation files only: the range in hours (SPEC §3/§4 acRange). */
  acRange?: number;
}

export interface TileSource {
  key(tile: TileRequest): string;
  load(tile: TileRequest, signal: AbortSignal): Promise<Uint8Array>;
}

export class TileLoadError extends Error {
  override name = 'TileLoadError';
}

/** The server's tiles of an ingested product run; Premium requests carry the user's bearer token. */
export class HttpTileSource implements TileSource {
  constructor(
    private readonly origin: string,
    private readonly product: Product,
    private readonly refTime: number,
    private readonly token: string | null,
  ) {}

  key({ file, level, validTime, address, acRange }: TileRequest): string {
    return this.origin + tilePath({
      directory: this.product.directory,
      refTime: this.refTime,
      validTime,
      ...address,
      file,
      level,
      suffix: this.product.fileSuffix,
      acRange,
    });
  }

  async load(tile: TileRequest, signal: AbortSignal): Promise<Uint8Array> {
    const url = this.key(tile);
    const response = await fetch(url, this.token ? { signal, headers: { Authorization: `Bearer ${this.token}` } } : { signal });
    if (!response.ok) throw new TileLoadError(`HTTP ${response.status} for ${url}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}

/** Tiles of a GRIB file opened in the browser, regridded on demand from its decoded fields. */
export class LocalTileSource implements TileSource {
  constructor(private readonly local: LocalGribProduct) {}

  key({ file, level, validTime, address: { z, x, y } }: TileRequest): string {
    return `${this.local.summary.product.ident}:${file}-${level}/${hourStamp(validTime)}/${z}/${x}/${y}`;
  }

  load(tile: TileRequest): Promise<Uint8Array> {
    const bytes = this.local.tile(tile.file, tile.level, tile.validTime, tile.address);
    if (!bytes) {
      return Promise.reject(new TileLoadError(`${this.local.summary.product.modelName} has no ${tile.file} at ${tile.level} for ${hourStamp(tile.validTime)}`));
    }
    return Promise.resolve(bytes);
  }
}
