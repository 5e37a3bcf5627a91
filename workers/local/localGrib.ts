/**
 * A GRIB2 file the user opened in the browser (issue 3 item 6): decoded in the render worker,
 * never uploaded, shown like any product. Its fields are matched to catalogue variables
 * (common/catalogue/variables.ts), laid out north-up, and served as data tiles generated on
 * request: the regridder samples the field at a tile's nodes, the tile is packed in the ordinary
 * tile format, and from there the worker treats it like a tile from the server.
 */

import { FILE_VARIABLES, matchGribField, type Variable } from '../../common/catalogue/variables.ts';
import { OVERLAYS, RENDER_LAYERS, particleLayerOf, type Overlay, type RenderLayer } from '../../common/catalogue/overlays.ts';
import type { Product } from '../../common/catalogue/products.ts';
import { MAX_DATA_ZOOM, TILE_NODES, nodeSpacing, tileBounds, type TileAddress } from '../../common/tiling.ts';
import { packDataTile, Predictor, type QuantizedChannel } from '../../common/tile.ts';
import type { Engine } from '../../engine/engine.ts';
import { decodeField, inventory, toNorthUp, type GribFieldInfo } from '../../engine/grib/index.ts';
import { Regridder, type SourceGrid } from '../../engine/regrid.ts';
import type { LocalGribSummary } from '../api.ts';
import { HOUR_MS } from '../../common/time.ts';

/** Largest file the browser opens: beyond it the tab's memory is at risk. */
const MAX_LOCAL_GRIB_BYTES = 512 * 1024 * 1024;
class LocalGribError extends Error {
  override name = 'LocalGribError';
}


interface StoredField {
  values: Float32Array;
  grid: SourceGrid;
}

/** key: `${variable}|${level}|${validTime}` */
type FieldKey = string;

function fieldKey(variable: string, level: string, validTime: number): FieldKey {
  return `${variable}|${level}|${validTime}`;
}

export class LocalGribProduct {
  private readonly regridder: Regridder;

  private constructor(
    engine: Engine,
    readonly summary: LocalGribSummary,
    private readonly fields: Map<FieldKey, StoredField>,
    /** The tile files (catalogue render layer files) the file holds whole: all of their variables. */
    private readonly files: ReadonlySet<string>,
  ) {
    this.regridder = new Regridder(engine);
  }

  /**
   * The particles of an overlay, where the file has their data: a rain-only file shows rain
   * without the wind particles that the rain overlay has over a model, whose wind tiles it lacks.
   */
  particleLayer(overlay: Overlay): RenderLayer | undefined {
    const layer = particleLayerOf(overlay);
    return layer && this.files.has(layer.file) ? layer : undefined;
  }

  static async open(engine: Engine, bytes: Uint8Array, name: string, id: string): Promise<LocalGribProduct> {
    if (bytes.byteLength > MAX_LOCAL_GRIB_BYTES) {
      throw new LocalGribError(`${name} is ${Math.round(bytes.byteLength / 1048576)} MB; files up to ${MAX_LOCAL_GRIB_BYTES / 1048576} MB open in the browser`);
    }
    const infos = inventory(bytes);
    const fields = new Map<FieldKey, StoredField>();
    const skipped: string[] = [];
    const levels = new Set<string>();
    const files = new Set<string>();
    const times = new Set<number>();
    let refTime = Infinity;
    let resolution = Infinity;
    let bounds: [number, number, number, number] | null = null;
    let global = true;
    for (const info of infos) {
      const match = matchGribField(info);
      // A rate or an instant value shows as it is; an accumulation needs the run's earlier steps.
      // The model's terrain height (a run-constant variable) and the inputs of the server's
      // derivations (wave direction, categorical precipitation, ...) have no map layer of their own.
      if (!match || match.kind === 'accumulation' || match.variable.static || match.variable.input || !info.grid.mappable) {
        skipped.push(describe(info, !info.grid.mappable ? info.grid.unsupportedReason ?? info.grid.type : undefined));
        continue;
      }
      const validTime = info.refTime + info.forecastEnd * HOUR_MS;
      const raw = await decodeField(engine, bytes, info);
      const up = toNorthUp(info, raw);
      const values = up.values;
      if (match.factor !== 1 || match.add !== 0) {
        for (let i = 0; i < values.length; i++) values[i] = values[i] * match.factor + match.add;
      }
      fields.set(fieldKey(match.variable.ident, match.level, validTime), {
        values,
        grid: { ni: up.Ni, nj: up.Nj, lon0: up.lon0, dLon: up.dLon, lat0: up.lat0, dLat: up.dLat, latitudes: up.latitudes, global: up.global },
      });
      levels.add(match.level);
      files.add(match.variable.file);
      times.add(validTime);
      refTime = Math.min(refTime, info.refTime);
      resolution = Math.min(resolution, up.dLon);
      global &&= up.global;
      if (!up.global) {
        const south = up.latitudes ? up.latitudes[up.Nj - 1] : up.lat0 - (up.Nj - 1) * up.dLat;
        const box: [number, number, number, number] = [up.lon0, south, up.lon0 + (up.Ni - 1) * up.dLon, up.lat0];
        bounds = bounds ? [Math.min(bounds[0], box[0]), Math.min(bounds[1], box[1]), Math.max(bounds[2], box[2]), Math.max(bounds[3], box[3])] : box;
      }
    }
    // Only whole files: a wind tile needs both u and v.
    const complete = [...files].filter((file) => FILE_VARIABLES[file].every((v) => [...fields.keys()].some((k) => k.startsWith(`${v.ident}|`))));
    const overlays = OVERLAYS.filter((o) => complete.includes(RENDER_LAYERS[o.layers[0]].file)).map((o) => o.ident);
    if (!overlays.length) {
      throw new LocalGribError(`${name} holds no field Isobar can show (${infos.length} fields: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''})`);
    }
    const timestamps = [...times].sort((a, b) => a - b);
    const z = dataZoomForResolution(resolution);
    const product: Product = {
      ident: `local-${id}`,
      modelName: name,
      provider: 'local',
      directory: `local/${id}`,
      resolution,
      interval: 0,
      premiumInterval: 0,
      bounds: global ? null : [bounds!],
      levels: [...levels],
      overlays,
      isolines: [],
      forecastSize: Math.round((timestamps[timestamps.length - 1] - refTime) / HOUR_MS),
      maxTileZoom: { free: z, premium: z },
      dataQuality: 'normal',
      fileSuffix: 'tile',
      accumulations: false,
      meteogram: false,
    };
    return new LocalGribProduct(engine, { product, refTime, timestamps, overlays, fields: infos.length, skipped }, fields, new Set(complete));
  }

  /** The data tile of a file at a level and valid time, in the ordinary tile format; null = none. */
  tile(file: string, level: string, validTime: number, address: TileAddress): Uint8Array | null {
    const variables: readonly Variable[] = FILE_VARIABLES[file] ?? [];
    const stored = variables.map((v) => this.fields.get(fieldKey(v.ident, level, validTime)));
    if (!variables.length || stored.some((s) => !s)) return null;
    const { west, north } = tileBounds(address);
    const spacing = nodeSpacing(address.z);
    const target = { nx: TILE_NODES, ny: TILE_NODES, lon0: west, dLon: spacing, lat0: north, dLat: spacing };
    const channels: QuantizedChannel[] = variables.map((v, c) => {
      this.regridder.load(stored[c]!.values, stored[c]!.grid);
      this.regridder.regrid(target);
      // A copy: the view is overwritten by the next channel.
      return { ...v.quantization, q: this.regridder.quantize(v.quantization, Predictor.None).slice() };
    });
    // No predictor: this tile never travels, so compressing it would be wasted work.
    return packDataTile({ ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.None, channels });
  }

  dispose(): void {
    this.regridder.release();
    this.fields.clear();
  }
}

/** The coarsest data zoom whose node spacing resolves the file's grid (common/tiling.ts). */
function dataZoomForResolution(degrees: number): number {
  for (let z = 0; z <= MAX_DATA_ZOOM; z++) if (nodeSpacing(z) <= degrees) return z;
  return MAX_DATA_ZOOM;
}

function describe(info: GribFieldInfo, why?: string): string {
  const name = info.shortName && info.shortName !== 'unknown' ? info.shortName : `${info.discipline}.${info.parameterCategory}.${info.parameterNumber}`;
  return `${name} @ ${info.typeOfLevel} ${info.level}${why ? ` (${why})` : ''}`;
}
