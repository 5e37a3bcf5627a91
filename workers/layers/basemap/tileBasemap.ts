/**
 * The tile base maps (SPEC §2 outdoor, winter, satellite, and the topoMap overlay) from the
 * sources the server is configured with (common/api/basemaps.ts): raster XYZ tiles drawn as
 * textured quads, or vector tiles of a PMTiles archive (workers/tiles/vectorTile.ts) drawn as
 * fills and line strips in the style's colours (vectorStyle.ts). Drawn into the static layer
 * under the weather colours. While a tile loads, a loaded parent stands in for it.
 */

import type REGL from 'regl';
import type { BasemapSource, BasemapsAnswer } from '../../../common/api/basemaps.ts';
import { DETAIL_MAP_ZOOM, type Rgba, type TileBasemapStyle } from '../../../common/basemapStyles.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import type { BasemapPlace } from '../../api.ts';
import { latFromMercY, lonFromMercX } from '../../../common/map.ts';
import { mapTileKey, mapTileZoom, mapTilesFor, type MapTile } from '../../tiles/mapTiles.ts';
import { decodeVectorTile, FILL_STRIDE, LINE_STRIDE, VectorArchive, type PlaceLabel, type TileMesh } from '../../tiles/vectorTile.ts';
import { vectorRules, type VectorRule } from './vectorStyle.ts';
import fillVertex from './mapTileFill.vertex.glsl?raw';
import lineVertex from './mapTileLine.vertex.glsl?raw';
import colorFragment from './mapTileColor.fragment.glsl?raw';
import rasterVertex from './mapTileRaster.vertex.glsl?raw';
import rasterFragment from './mapTileRaster.fragment.glsl?raw';

/** Raster XYZ tiles are 256 px; Protomaps vector tiles are made to be drawn at 512 px. */
const RASTER_TILE_PX = 256;
const VECTOR_TILE_PX = 512;
/** Tiles kept on the GPU (about 3 views of 1280 x 720 with their parents). */
const TILE_CACHE_ENTRIES = 96;
/** How many zooms up a loaded parent is looked for while a tile loads. */
const PARENT_LEVELS = 6;

/** What the tile base map draws: the detailed map of the map setting above DETAIL_MAP_ZOOM, the topoMap overlay at any zoom. */
export interface TileBasemapChoice {
  /** SPEC §3 setting map, as a style (common/basemapStyles.ts MAP_SETTING_STYLES). */
  map: TileBasemapStyle;
  /** The topoMap overlay is selected. */
  topoMap: boolean;
  sources: BasemapsAnswer['sources'];
  lang: string;
}

/** The source drawn at this zoom, if one is configured: topoMap when that overlay is on, else the map setting's above DETAIL_MAP_ZOOM. */
export function tileBasemapFor(choice: TileBasemapChoice, zoom: number): { style: TileBasemapStyle; source: BasemapSource } | null {
  if (choice.topoMap && choice.sources.topoMap) return { style: 'topoMap', source: choice.sources.topoMap };
  const source = choice.sources[choice.map];
  return zoom > DETAIL_MAP_ZOOM && source ? { style: choice.map, source } : null;
}

/** A raster template's URL of one tile. */
export function rasterTileUrl(template: string, { z, x, y }: { z: number; x: number; y: number }): string {
  return template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
}

/**
 * Two places of one name nearer than this (normalised Mercator, about 400 m at the equator) are one
 * place: the same feature in a parent tile and in its child, whose positions differ by the tiles'
 * coordinate rounding (1/4096 of a tile).
 */
const SAME_PLACE_MERC = 1e-5;

/**
 * The places of the tiles drawn, in lon/lat, each once: a tile's places outside its own square
 * (in its buffer, drawn by the neighbour) are left out, and a place a parent and its child both
 * hold is kept once. Highest population rank first.
 */
export function placesOfTiles(tiles: readonly { z: number; x: number; y: number; places: readonly PlaceLabel[] }[]): BasemapPlace[] {
  const kept: { place: BasemapPlace; mx: number; my: number }[] = [];
  // Finer tiles first: their positions are the more exact.
  for (const tile of [...tiles].sort((a, b) => b.z - a.z)) {
    const n = 2 ** tile.z;
    for (const p of tile.places) {
      if (p.x < 0 || p.x >= 1 || p.y < 0 || p.y >= 1) continue;
      const mx = (tile.x + p.x) / n;
      const my = (tile.y + p.y) / n;
      if (kept.some((k) => k.place.name === p.name && Math.hypot(k.mx - mx, k.my - my) < SAME_PLACE_MERC)) continue;
      kept.push({ place: { name: p.name, localName: p.localName, lon: lonFromMercX(mx), lat: latFromMercY(my), kind: p.kind, rank: p.rank, minZoom: p.minZoom }, mx, my });
    }
  }
  return kept.map((k) => k.place).sort((a, b) => b.rank - a.rank);
}

interface GpuMesh { vertices: REGL.Buffer; elements: REGL.Elements }

interface Entry {
  state: 'loading' | 'ready' | 'empty' | 'failed';
  texture?: REGL.Texture2D;
  fills?: GpuMesh[];
  lines?: GpuMesh[];
  places?: PlaceLabel[];
  abort: AbortController;
  used: number;
}

export interface TileBasemapLayer {
  /** Draws the tile base map for the frame, if one applies; false when the offline map alone shows. */
  draw(t: FrameTransform, choice: TileBasemapChoice): boolean;
  destroy(): void;
}

export function createTileBasemapLayer(regl: REGL.Regl, options: {
  origin: string;
  onChange: () => void;
  onError: (message: string) => void;
  /** The place names of the tiles drawn changed (ui/labels/basemapLabels.ts draws them). */
  onPlaces: (places: BasemapPlace[]) => void;
}): TileBasemapLayer {
  let sourceKey = '';
  let archive: VectorArchive | null = null;
  /** A vector archive's zooms, from its header once read (the server may not know them: an archive elsewhere). */
  let archiveZooms: { minZoom: number; maxZoom: number } | null = null;
  let rules: { background: Rgba; rules: VectorRule[] } | null = null;
  const entries = new Map<string, Entry>();
  let clock = 0;
  let reported = '';
  /** The tiles (and source) whose places were sent last. */
  let placesSent = '';
  const sendPlaces = (signature: string, tiles: MapTile[]) => {
    if (signature === placesSent) return;
    placesSent = signature;
    options.onPlaces(placesOfTiles(tiles.map((tile) => ({ ...tile, places: entries.get(mapTileKey(tile.z, tile.x, tile.y))?.places ?? [] }))));
  };

  const unit = regl.buffer([0, 0, 1, 0, 0, 1, 1, 1]);

  interface TileProps { offset: [number, number]; size: number; t: FrameTransform }
  const tileUniforms = {
    u_offset: regl.prop<TileProps, 'offset'>('offset'),
    u_size: regl.prop<TileProps, 'size'>('size'),
    u_scale: (_: unknown, p: TileProps) => p.t.scale,
  };
  const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;

  interface MeshProps extends TileProps { mesh: GpuMesh }
  const drawFills = regl<Record<string, unknown>, Record<string, unknown>, MeshProps>({
    vert: fillVertex,
    frag: colorFragment,
    attributes: {
      a_pos: { buffer: (_: unknown, p: MeshProps) => p.mesh.vertices, stride: FILL_STRIDE * 4, offset: 0, size: 2 },
      a_color: { buffer: (_: unknown, p: MeshProps) => p.mesh.vertices, stride: FILL_STRIDE * 4, offset: 8, size: 4 },
    },
    elements: (_: unknown, p: MeshProps) => p.mesh.elements,
    uniforms: tileUniforms,
    depth: { enable: false },
    blend,
  });
  const drawLines = regl<Record<string, unknown>, Record<string, unknown>, MeshProps>({
    vert: lineVertex,
    frag: colorFragment,
    attributes: {
      a_pos: { buffer: (_: unknown, p: MeshProps) => p.mesh.vertices, stride: LINE_STRIDE * 4, offset: 0, size: 2 },
      a_normal: { buffer: (_: unknown, p: MeshProps) => p.mesh.vertices, stride: LINE_STRIDE * 4, offset: 8, size: 2 },
      a_width: { buffer: (_: unknown, p: MeshProps) => p.mesh.vertices, stride: LINE_STRIDE * 4, offset: 16, size: 1 },
      a_color: { buffer: (_: unknown, p: MeshProps) => p.mesh.vertices, stride: LINE_STRIDE * 4, offset: 20, size: 4 },
    },
    elements: (_: unknown, p: MeshProps) => p.mesh.elements,
    uniforms: {
      ...tileUniforms,
      u_pixel: (_: unknown, p: MeshProps) => [(2 * p.t.pixelRatio) / p.t.width, (2 * p.t.pixelRatio) / p.t.height],
    },
    depth: { enable: false },
    blend,
  });
  interface BackgroundProps extends TileProps { color: Rgba }
  const drawBackground = regl<Record<string, unknown>, Record<string, unknown>, BackgroundProps>({
    vert: fillVertex,
    frag: colorFragment,
    primitive: 'triangle strip',
    count: 4,
    attributes: { a_pos: unit, a_color: { constant: regl.prop<BackgroundProps, 'color'>('color') as unknown as number[] } },
    uniforms: tileUniforms,
    depth: { enable: false },
    blend,
  });
  interface RasterProps extends TileProps { texture: REGL.Texture2D }
  const drawRaster = regl<Record<string, unknown>, Record<string, unknown>, RasterProps>({
    vert: rasterVertex,
    frag: rasterFragment,
    primitive: 'triangle strip',
    count: 4,
    attributes: { a_pos: unit },
    uniforms: { ...tileUniforms, u_uv: [0, 0, 1, 1], u_image: regl.prop<RasterProps, 'texture'>('texture') },
    depth: { enable: false },
    blend,
  });

  const upload = (meshes: TileMesh[]): GpuMesh[] => meshes.map((m) => ({
    vertices: regl.buffer({ data: m.vertices, usage: 'static' }),
    elements: regl.elements({ data: m.indices, type: 'uint16', primitive: 'triangles', usage: 'static' }),
  }));
  const free = (entry: Entry) => {
    entry.abort.abort();
    entry.texture?.destroy();
    for (const m of [...(entry.fills ?? []), ...(entry.lines ?? [])]) {
      m.vertices.destroy();
      m.elements.destroy();
    }
  };
  const clear = () => {
    for (const entry of entries.values()) free(entry);
    entries.clear();
  };

  const report = (message: string) => {
    // One message per source, not one per tile.
    if (reported === sourceKey) return;
    reported = sourceKey;
    options.onError(message);
  };

  const absolute = (url: string) => (url.startsWith('/') ? options.origin + url : url);

  function load(source: BasemapSource, tile: MapTile, key: string, lang: string): void {
    const entry: Entry = { state: 'loading', abort: new AbortController(), used: clock };
    entries.set(key, entry);
    const forKey = sourceKey;
    const done = (state: Entry['state']) => {
      if (sourceKey !== forKey || entries.get(key) !== entry) return;
      entry.state = state;
      options.onChange();
    };
    const task = source.kind === 'raster'
      ? (async () => {
        const response = await fetch(rasterTileUrl(absolute(source.url), tile), { signal: entry.abort.signal });
        if (response.status === 404) return done('empty');
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const image = await createImageBitmap(await response.blob(), { premultiplyAlpha: 'premultiply' });
        if (sourceKey !== forKey || entries.get(key) !== entry) return image.close();
        // regl takes an ImageBitmap (its types name only DOM images and canvases).
        entry.texture = regl.texture({ data: image as unknown as HTMLCanvasElement, min: 'linear', mag: 'linear', wrapS: 'clamp', wrapT: 'clamp' });
        image.close();
        done('ready');
      })()
      : (async () => {
        const bytes = await archive!.tile(tile.z, tile.x, tile.y, entry.abort.signal);
        if (!bytes) return done('empty');
        const geometry = decodeVectorTile(bytes, rules!.rules, lang);
        if (sourceKey !== forKey || entries.get(key) !== entry) return;
        entry.fills = upload(geometry.fills);
        entry.lines = upload(geometry.lines);
        entry.places = geometry.places;
        done('ready');
      })();
    task.catch((error: unknown) => {
      if ((error as Error).name === 'AbortError') return;
      done('failed');
      report(`Base map tiles from ${source.url} failed to load: ${(error as Error).message}`);
    });
  }

  function evict(keep: Set<string>): void {
    if (entries.size <= TILE_CACHE_ENTRIES) return;
    const old = [...entries.entries()].filter(([key]) => !keep.has(key)).sort((a, b) => a[1].used - b[1].used);
    for (const [key, entry] of old.slice(0, entries.size - TILE_CACHE_ENTRIES)) {
      free(entry);
      entries.delete(key);
    }
  }

  return {
    draw(t, choice) {
      const chosen = tileBasemapFor(choice, t.view.zoom);
      if (!chosen) {
        sendPlaces('', []);
        return false;
      }
      const { style, source } = chosen;
      const key = `${style}|${source.kind}|${source.url}|${choice.lang}`;
      if (key !== sourceKey) {
        clear();
        sourceKey = key;
        archive = source.kind === 'pmtiles' ? new VectorArchive(absolute(source.url)) : null;
        archiveZooms = null;
        rules = vectorRules(style);
        const forKey = key;
        archive?.zooms().then(
          (zooms) => {
            if (sourceKey !== forKey) return;
            archiveZooms = zooms;
            options.onChange();
          },
          (error: unknown) => report(`Base map archive ${source.url} cannot be read: ${(error as Error).message}`),
        );
      }
      // A vector map waits for its archive's header (its zooms); the offline map shows meanwhile.
      if (source.kind === 'pmtiles' && !archiveZooms) {
        sendPlaces('', []);
        return false;
      }
      const zooms = archiveZooms ?? source;
      clock++;
      const tilePx = source.kind === 'raster' ? RASTER_TILE_PX : VECTOR_TILE_PX;
      const z = mapTileZoom(t.view.zoom, tilePx, zooms.minZoom, zooms.maxZoom);
      const wanted = mapTilesFor(t, z);
      const keep = new Set<string>();
      const parents = new Map<string, MapTile>();
      const own: MapTile[] = [];
      for (const tile of wanted) {
        const key = mapTileKey(tile.z, tile.x, tile.y);
        keep.add(key);
        const entry = entries.get(key);
        if (!entry) load(source, tile, key, choice.lang);
        if (entry && entry.state !== 'loading') {
          entry.used = clock;
          own.push(tile);
          continue;
        }
        for (let up = 1; up <= PARENT_LEVELS && tile.z - up >= zooms.minZoom; up++) {
          const pz = tile.z - up;
          const px = tile.x >> up;
          const py = tile.y >> up;
          const parentKey = mapTileKey(pz, px, py);
          const parent = entries.get(parentKey);
          if (parent && parent.state !== 'loading') {
            parent.used = clock;
            keep.add(parentKey);
            const column = Math.floor(tile.column / 2 ** up);
            parents.set(`${parentKey}@${column}`, { z: pz, x: px, y: py, column });
            break;
          }
        }
      }
      const drawTile = (tile: MapTile) => {
        const entry = entries.get(mapTileKey(tile.z, tile.x, tile.y))!;
        const size = 1 / 2 ** tile.z;
        const props = { offset: [tile.column * size - t.center[0], tile.y * size - t.center[1]] as [number, number], size, t };
        if (source.kind === 'raster') {
          if (entry.texture) drawRaster({ ...props, texture: entry.texture });
          return;
        }
        drawBackground({ ...props, color: rules!.background });
        for (const mesh of entry.fills ?? []) drawFills({ ...props, mesh });
        for (const mesh of entry.lines ?? []) drawLines({ ...props, mesh });
      };
      // Parents first (larger, coarser), then the tiles of this zoom over them.
      for (const tile of [...parents.values()].sort((a, b) => a.z - b.z)) drawTile(tile);
      for (const tile of own) drawTile(tile);
      const drawn = [...parents.values(), ...own].filter((tile) => entries.get(mapTileKey(tile.z, tile.x, tile.y))?.places?.length);
      sendPlaces(`${sourceKey}#${drawn.map((tile) => mapTileKey(tile.z, tile.x, tile.y)).sort().join(',')}`, drawn);
      evict(keep);
      return true;
    },
    destroy() {
      clear();
      // Loads still on their way find the layer gone and drop what they bring.
      sourceKey = '';
      unit.destroy();
    },
  };
}
