/**
 * The render worker's logic: owns the OffscreenCanvas, regl (WebGL 1), the WASM engine, the tile
 * cache and the layers, and draws one frame per animation frame while something moves.
 *
 * A frame:
 *   1. view or data changed -> plan the tiles (cache of 50, SPEC §9) and rebuild the particle field
 *      from the two forecast steps around the shown time (engine, WASM);
 *   2. static layer dirty -> redraw basemap fill, raster, basemap lines into its framebuffer;
 *   3. particles on -> one WASM step, vertices uploaded from WASM memory, trail pass;
 *   4. composite static + trail onto the canvas.
 * Nothing is recomputed that did not change; with particles off the loop goes idle.
 */

import { clampFrameCap } from '../common/frameCap.ts';
import { SECOND_MS } from '../common/time.ts';
import createREGL from 'regl';
import type REGL from 'regl';
import { decodeBasemap, type Basemap } from '../common/basemap.ts';
import { colorLayerOf, overlayByIdent, type Overlay, type RenderLayer } from '../common/catalogue/overlays.ts';
import { layerFiles, particleLayerFor } from './layers/particles/gate.ts';
import { PRODUCTS, dataZoomFor, type Product } from '../common/catalogue/products.ts';
import { samplingOf } from '../common/catalogue/metrics.ts';
import { clampZoom, MIN_ZOOM } from '../common/map.ts';
import { clampGlobeZoom, wrapLon } from '../common/globe.ts';
import type { Calendar } from '../common/minifest.ts';
import { tileAt, tileSpan, TILE_NODES, type TileAddress } from '../common/tiling.ts';
import type { TileHeader } from '../common/tile.ts';
import type { Engine} from '../engine/engine.ts';
import { type DecodedTileHandle } from '../engine/engine.ts';
import { LocalGribProduct } from './local/localGrib.ts';
import { isolineSource, type IsolineSource } from '../common/isolines.ts';
import type {
  BasemapParams, CapAlertAreaInfo, DebugPass, IsolineParams, LonLatShapes, InitParams, LocalGribSummary, InitResult, Kernel, LayerParams, ParticleParams, RadarParams, RenderApi, SatelliteParams, RenderEvent, RenderStats, SampleResult, ViewParams,
} from './api.ts';
import { frameTransform, isPanOnly, panShift, pixelRatioFor, type FrameTransform } from './gl/transform.ts';
import { createBasemapLayer, graticuleStep, type BasemapLayer } from './layers/basemap/basemap.ts';
import { createBasemapDetail, type BasemapDetail } from './layers/basemap/basemapDetail.ts';
import { createTileBasemapLayer, tileBasemapFor, type TileBasemapChoice, type TileBasemapLayer } from './layers/basemap/tileBasemap.ts';
import { BASEMAP_50M_FROM_ZOOM, type OfflineBasemapStyle } from '../common/basemapStyles.ts';
import { createGlobeLayer, GLOBE_COLORS, type GlobeLayer } from './layers/globe/globe.ts';
import { globeFrame, globeParticleView, globeTileRect, sameGlobe, type GlobeFrame } from './gl/globeTransform.ts';
import { globePlanFor } from './tiles/globePlan.ts';
import { createCompositeLayer, type CompositeLayer } from './layers/composite/composite.ts';
import { createNoDataLayer, type NoDataLayer } from './layers/nodata/nodata.ts';
import { TAYLOR_FROM_ZOOM, createParticleLayer, mercatorTaylor, particleCopies, type ParticleLayer } from './layers/particles/particles.ts';
import { createRasterLayer, createTileTexture, type RasterLayer } from './layers/raster/raster.ts';
import { createIsolineLayer, type IsolineLayer } from './layers/isolines/isolines.ts';
import { createVectorLayer, type VectorLayer } from './layers/vector/vector.ts';
import { alertAreasAt, capAlertShapes, readAlertAreas, type CapAlertArea } from './layers/capAlerts/capAlerts.ts';
import { createPointLayer, type PointLayer, type PointSet } from './layers/points/points.ts';
import { Lazy } from './layers/lazy.ts';
import { flashMarks } from './layers/lightning/lightning.ts';
import { fireMarks } from './layers/firespots/firespots.ts';
import { tideMarks } from './layers/tides/tides.ts';
import { webcamMarks } from './layers/webcams/webcams.ts';
import { metarMarks } from './layers/metars/metars.ts';
import { decodeFlashes } from '../common/obs/flashes.ts';
import { assembleGrid, buildIsolines, labelPlaces, type IsolineSet } from './layers/isolines/isolineBuilder.ts';
import { rasterDraws, type LoadedTile } from './layers/raster/rasterDraws.ts';
import type { Vec4 } from './layers/raster/raster.ts';
import type { VisibleTile } from './tiles/tileSet.ts';
import { particleCount, particleSpeed, particleStyle, trailFade } from './layers/particles/tuning.ts';
import { sampleTile, windDirection } from './tiles/sample.ts';
import { TileCache } from './tiles/tileCache.ts';
import { HttpTileSource, LocalTileSource, type TileRequest, type TileSource } from './tiles/tileSource.ts';
import { RadarTileSource } from './tiles/radarTileSource.ts';
import { RADAR_PRODUCT } from '../common/radar.ts';
import { SatelliteTileSource } from './tiles/satelliteTileSource.ts';
import { SATELLITE_PRODUCT } from '../common/satellite.ts';
import { failedStandIns, planFor, planTiles, sameRange, tilesAt, type TilePlan } from './tiles/tilePlan.ts';
import { fieldColumnOf, fieldColumns } from './tiles/tileSet.ts';
import { FrameStats, wallClock } from './frameStats.ts';
import { ParticleSystem } from './particleSystem.ts';
import { FixedSteps, type FixedStepsParams } from './fixedSteps.ts';
import { sameShownData } from './layerFiles.ts';

/** SPEC §9: data-tile cache 50 entries. */
const TILE_CACHE_ENTRIES = 50;
/**
 * Isolines follow the time blend in steps of this share of a forecast step: contouring again on
 * every frame of a playback would cost more than a frame.
 */
const ISOLINE_BLEND_STEP = 1 / 8;
/** Opacity of the weather colours over a tile base map (outdoor, winter, satellite, topoMap), so the map shows through. */
const WEATHER_OVER_TILE_MAP_OPACITY = 0.55;

interface TileData {
  handle: DecodedTileHandle;
  header: TileHeader;
  /** Created when the tile is first drawn; until then the tile's bytes wait for it. */
  texture: REGL.Texture2D | null;
  bytes: Uint8Array | null;
}

/** A tile asked of the cache: which source and what. */
interface SourcedTile {
  source: TileSource;
  tile: TileRequest;
}

interface ResolvedLayer {
  product: Product;
  /** Where its tiles come from: the server, or a file opened in the browser. */
  source: TileSource;
  overlay: Overlay;
  level: string;
  color: RenderLayer;
  particles: RenderLayer | undefined;
  /** The accumulation range of the colour layer's tiles, hours; undefined for other layers. */
  acRange: number | undefined;
  calendar: Calendar;
  premium: boolean;
}

interface Gpu {
  regl: REGL.Regl;
  basemap: BasemapLayer;
  // The layers a first frame may not need are Lazy (workers/layers/lazy.ts): made when first used.
  /** Made when a tiled base map is chosen and the zoom reaches it. */
  tileBasemap: Lazy<TileBasemapLayer>;
  raster: RasterLayer;
  /** Made on the first failed tile: most sessions never need it. */
  noData: Lazy<NoDataLayer>;
  particles: ParticleLayer;
  isolines: Lazy<IsolineLayer>;
  vector: Lazy<VectorLayer>;
  /** Fire detections and lightning flashes over the colour layer (setFirespots, setLightning). */
  firespots: Lazy<PointLayer>;
  /** Tide stations (SPEC §3 pois "tide", setTideStations). */
  tideStations: Lazy<PointLayer>;
  /** METAR stations by flight category (setMetars, SPEC §3 pois metars). */
  metars: Lazy<PointLayer>;
  lightning: Lazy<PointLayer>;
  /** Webcams (SPEC §3 pois "cams", setWebcams). */
  webcams: Lazy<PointLayer>;
  /** The globe's disc, basemap and particles (SPEC §2 window "globe"). */
  globe: Lazy<GlobeLayer>;
  composite: CompositeLayer;
  maxTextureSize: number;
  renderer: string;
  /** A CPU rasterizer: fill-bound, and instancing runs one instance at a time. */
  software: boolean;
}

const DEFAULT_PARTICLES: ParticleParams = { multiplier: 1, velocity: 1, width: 1, blending: 1, opacity: 1, anim: 'on' };

const raf: (cb: () => void) => unknown = typeof requestAnimationFrame === 'function'
  ? (cb) => requestAnimationFrame(cb)
  : (cb) => setTimeout(cb, 16);

export class Renderer implements RenderApi {
  private canvas: OffscreenCanvas | null = null;
  private gl: WebGLRenderingContext | null = null;
  private gpu: Gpu | null = null;
  private engine: Engine | null = null;
  private particleSystem: ParticleSystem | null = null;
  private readonly origin: string;
  /** GRIB files opened in the browser, by product ident. */
  private readonly localFiles = new Map<string, LocalGribProduct>();
  private localCount = 0;
  private readonly engineReady: Promise<Engine>;
  /** Counts init/dispose pairs: an init that lost its canvas while it waited gives up. */
  private generation = 0;
  private onEvent: (e: RenderEvent) => void = () => {};
  private view: ViewParams = { lon: 0, lat: 20, zoom: MIN_ZOOM, width: 1, height: 1, pixelRatio: 1 };
  private layer: ResolvedLayer | null = null;
  private time = 0;
  private particleParams = DEFAULT_PARTICLES;
  private isolineParams: IsolineParams | null = null;
  /** Vector shapes by set name, kept to upload again after a context loss. */
  private readonly shapes = new Map<string, LonLatShapes>();
  /** The marks last set (kept to upload again after a context loss). */
  private lightningMarks: ReturnType<typeof flashMarks> | null = null;
  private fireMarks: ReturnType<typeof fireMarks> | null = null;
  private tideMarks: ReturnType<typeof tideMarks> | null = null;
  private webcamMarks: ReturnType<typeof webcamMarks> | null = null;
  private metarMarks: ReturnType<typeof metarMarks> | null = null;
  /** What the isoline lines on the GPU were made from, and the zoom their labels were placed for. */
  private isolinesMade = '';
  private isolineSet: IsolineSet | null = null;
  private isolineLabelsZoom: number | null = null;
  private kernel: Kernel = 'simd';
  private readonly tiles: TileCache<TileData, SourcedTile>;
  private lost = false;
  private disposed = false;
  private running = false;
  /** The frame cap's interval, ms (0: none), and when the last frame began (performance.now()). */
  private minFrameMs = 0;
  private lastFrameAt = -Infinity;
  private graticule = true;
  private basemapStyle: OfflineBasemapStyle = 'gray';
  private tileBasemap: TileBasemapChoice = { map: 'outdoor', topoMap: false, sources: {}, lang: 'en' };
  private skip = new Set<DebugPass>();
  /** The canvas shows no trails (first frame, after a zoom, after particles were off). */
  private trailsCleared = true;

  // What changed since the last frame.
  private planDirty = true;
  private staticChangedFlag = true;
  /**
   * Counts changes of what the static layer shows other than the time: the kept pictures of the
   * static layer (composite.ts remember/recall) are of one generation and keyed by time.
   */
  private staticGeneration = 0;
  private keptGeneration = 0;
  /** The static layer must be drawn again: anything it shows changed (setTime marks only the time). */
  private get staticDirty(): boolean {
    return this.staticChangedFlag;
  }
  private set staticDirty(dirty: boolean) {
    if (dirty) this.staticGeneration++;
    this.staticChangedFlag = dirty;
  }
  /** The warnings' areas (setCapAlerts; drawn as the vector set 'capAlerts') and the latest request. */
  private capAreas: CapAlertArea[] = [];
  private capRequest = 0;
  private fieldDirty = true;
  private last: FrameTransform | null = null;
  private plan: TilePlan | null = null;
  private fieldReady = false;
  /**
   * The step the raster and the particles last showed: while the tiles of a new time load (a step
   * of the timeline, playback on a slow connection), a tile still shows this step's data, where it is
   * still cached, instead of the map going blank until the new data arrives.
   */
  private shownStep: number | null = null;
  /** The globe's last frame (the flat map's is `last`). */
  private lastGlobe: GlobeFrame | null = null;
  /** The particles were last spawned for the globe: a switch respawns them. */
  private particlesOnGlobe = false;
  private basemapDetail: '110m' | '50m' | null = null;
  /**
   * The basemap of basemapDetail once decoded: its fetch starts before the WebGL context is made
   * (init), and a GPU made after it arrived takes it from here.
   */
  private basemapData: Basemap | null = null;
  /** Render tests: fixed particle steps, then hold (setFixedSteps); basemap fetches under way. */
  private fixed: FixedSteps | null = null;
  private basemapLoads = 0;
  /** The 10m cells of the offline map from zoom 5. */
  private readonly basemap10m: BasemapDetail;

  private readonly frameStats = new FrameStats();

  /** Records a start-up milestone (RenderStats.milestones) the first time it is reached. */
  milestone(name: string, at = wallClock()): void {
    this.frameStats.milestone(name, at);
  }

  private createTileCache(): TileCache<TileData, SourcedTile> {
    return new TileCache<TileData, SourcedTile>({
      capacity: TILE_CACHE_ENTRIES,
      load: ({ source, tile }, signal) => this.loadTile(source, tile, signal),
      dispose: (data) => {
        this.engine?.releaseTile(data.handle);
        if (!this.lost) data.texture?.destroy();
      },
      onSettled: (entry) => {
        if (entry.state === 'failed') {
          // SPEC §8: 'Failed to load tile' plus the url (a source's key: the URL of an HTTP tile).
          console.warn(`Failed to load tile ${entry.key}: ${entry.error?.message}`);
          this.onEvent({ type: 'tileFailed', url: entry.key, message: entry.error?.message ?? '' });
          if (this.view.globe) this.requestStandIns();
        }
        // Drawn again, but no kept picture of the static layer is stale: one is kept only when
        // every tile is in and none failed (prepareFrame), and the plan's tiles are pinned.
        this.staticChangedFlag = true;
        this.fieldDirty = true;
        this.wake();
      },
    });
  }

  /**
   * The engine compiles as soon as the worker starts, in parallel with the page; tiles can be asked
   * for before the canvas arrives, so the network, the WASM and WebGL start-up overlap.
   */
  constructor(engine: Promise<Engine>, origin: string) {
    this.origin = origin.replace(/\/$/, '');
    this.tiles = this.createTileCache();
    this.basemap10m = createBasemapDetail({
      origin: this.origin,
      onChange: () => {
        this.staticDirty = true;
        this.wake();
      },
      onError: (message) => this.onEvent({ type: 'error', message }),
    });
    this.engineReady = engine.then((e) => {
      this.engine = e;
      this.particleSystem = new ParticleSystem(e);
      this.milestone('engine');
      return e;
    });
  }

  listen(listener: (event: RenderEvent) => void): void {
    this.onEvent = listener;
  }

  async init({ canvas, view, frameCap }: InitParams): Promise<InitResult> {
    this.milestone('init');
    this.setFrameCap({ fps: frameCap ?? null });
    const generation = ++this.generation;
    this.disposed = false;
    this.canvas = canvas;
    this.setView(view);
    // The basemap's fetch, and the messages already queued behind this one (the layer) with their
    // tile loads, start first: creating a WebGL context blocks this thread for a while, and the
    // network works meanwhile. The engine compiles on V8's background threads all along.
    void this.loadBasemap('110m');
    // A map opened at zoom 4 or more: the setView above ran before the basemap had a detail, so it
    // asked for no 50m coastlines; without this the map kept the coarse ones until the view moved.
    if (this.view.zoom >= BASEMAP_50M_FROM_ZOOM) void this.loadBasemap('50m');
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (generation !== this.generation) throw new Error('The map was closed while it started');
    const gl = canvas.getContext('webgl', {
      // The canvas keeps its pixels between frames: it is the particle trail (composite.ts).
      alpha: false, antialias: false, depth: false, stencil: false, premultipliedAlpha: true, preserveDrawingBuffer: true,
      powerPreference: 'high-performance',
    });
    if (!gl) throw new Error('WebGL is not available in this browser');
    this.gl = gl;
    canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault();
      this.onContextLost();
    });
    canvas.addEventListener('webglcontextrestored', () => this.onContextRestored());
    this.createGpu();
    this.milestone('gl');
    this.wake();
    const engine = await this.engineReady;
    if (generation !== this.generation) throw new Error('The map was closed while it started');
    return {
      renderer: this.gpu!.renderer,
      maxTextureSize: this.gpu!.maxTextureSize,
      simd: engine.simd,
      pixelRatio: pixelRatioFor(view.pixelRatio),
    };
  }

  setView(view: ViewParams): void {
    const zoom = view.globe ? clampGlobeZoom(view.zoom) : clampZoom(view.zoom);
    if (!!view.globe !== !!this.view.globe) {
      // Flat map <-> globe: the trails and the particles' spawn area belong to the other view.
      this.last = null;
      this.lastGlobe = null;
      this.trailsCleared = true;
      this.fieldDirty = true;
    }
    this.view = view.globe ? { ...view, zoom, lon: wrapLon(view.lon) } : { ...view, zoom };
    this.planDirty = true;
    this.staticDirty = true;
    this.planNow();
    this.wake();
    if (zoom >= BASEMAP_50M_FROM_ZOOM && this.basemapDetail === '110m') void this.loadBasemap('50m');
  }

  setLayer(params: LayerParams): void {
    const local = this.localFiles.get(params.product);
    const product = PRODUCTS[params.product] ?? local?.summary.product;
    const overlay = overlayByIdent(params.overlay);
    if (!product || !overlay) {
      this.onEvent({ type: 'error', message: `Unknown product ${params.product} or overlay ${params.overlay}` });
      return;
    }
    const timestamps = params.timestamps.filter(Number.isFinite);
    if (!timestamps.length) return;
    this.milestone('layer');
    const color = colorLayerOf(overlay);
    const previous = this.layer && { product: this.layer.product.ident, color: this.layer.color.ident, level: this.layer.level };
    if (!sameShownData(previous, { product: product.ident, color: color.ident, level: params.level })) {
      // Another layer: the previous one's step does not stand in, and its colours do not linger in the trails.
      this.shownStep = null;
      this.trailsCleared = true;
    }
    const premium = params.premium;
    this.showLayer({
      product,
      source: local ? new LocalTileSource(local) : new HttpTileSource(this.origin, product, params.refTime, premium ? params.token ?? null : null),
      overlay,
      level: params.level,
      color,
      // A file opened in the browser has only its own layers (no wind tiles asked of a rain-only file);
      // an ingested run only those its minifest lists (no wave flow asked of a wave-height-only run).
      particles: particleLayerFor(overlay, local, { level: params.level, layers: params.layers }),
      // SPEC §7: accumulation tiles are asked with the range (hours), which the UI has fitted to the calendar (SPEC §4).
      acRange: color.renderer === 'accumulations' ? params.acRange : undefined,
      calendar: { refTime: params.refTime, timestamps, start: timestamps[0], end: timestamps[timestamps.length - 1] },
      premium,
    }, params.time);
  }

  setRadar(params: RadarParams): void {
    const overlay = overlayByIdent(params.overlay);
    const timestamps = params.steps.map((s) => s.time);
    if (!overlay) return;
    if (!timestamps.length) {
      // No frame (no radar source, or none yet): the map shows no weather rather than the forecast
      // layer under the radar overlay's name (the timeline says why).
      this.clearLayer();
      return;
    }
    this.milestone('layer');
    const color = colorLayerOf(overlay);
    if (this.layer?.product !== RADAR_PRODUCT) {
      this.shownStep = null;
      this.trailsCleared = true;
    }
    this.showLayer({
      product: RADAR_PRODUCT,
      source: new RadarTileSource(this.origin, params.steps, params.token ?? null),
      overlay,
      level: 'surface',
      color,
      particles: undefined,
      acRange: undefined,
      calendar: { refTime: timestamps[0], timestamps, start: timestamps[0], end: timestamps[timestamps.length - 1] },
      premium: params.premium,
    }, params.time);
  }

  /** No weather layer: the base map alone, under what the overlay draws itself (warnings). */
  clearLayer(): void {
    this.layer = null;
    this.plan = null;
    this.shownStep = null;
    this.trailsCleared = true;
    this.staticDirty = this.fieldDirty = true;
    this.wake();
  }

  setSatellite(params: SatelliteParams): void {
    const overlay = overlayByIdent('satellite');
    const timestamps = params.steps.map((s) => s.time);
    if (!overlay) return;
    if (!timestamps.length) {
      // No frame (no satellite source, or none yet): the map shows no weather rather than the
      // forecast layer under the satellite overlay's name (the timeline says why).
      this.clearLayer();
      return;
    }
    this.milestone('layer');
    if (this.layer?.product !== SATELLITE_PRODUCT) {
      this.shownStep = null;
      this.trailsCleared = true;
    }
    this.showLayer({
      product: SATELLITE_PRODUCT,
      source: new SatelliteTileSource(this.origin, params.steps, params.lon0, params.token ?? null),
      overlay,
      level: 'surface',
      color: colorLayerOf(overlay),
      particles: undefined,
      acRange: undefined,
      calendar: { refTime: timestamps[0], timestamps, start: timestamps[0], end: timestamps[timestamps.length - 1] },
      premium: params.premium,
    }, params.time);
  }

  private showLayer(layer: ResolvedLayer, time: number): void {
    const sameColor = this.layer?.color.ident === layer.color.ident;
    this.layer = layer;
    this.time = time;
    const { color } = layer;
    if (this.gpu && !sameColor) this.gpu.raster.setScale(color.colorScale, !!color.vector, this.gpu.maxTextureSize, !!color.metric.classes);
    this.planDirty = this.staticDirty = this.fieldDirty = true;
    this.planNow();
    this.wake();
  }

  setTime({ time }: { time: number }): void {
    if (time === this.time) return;
    this.time = time;
    // Only the time: pictures of the static layer kept for other times stay valid.
    this.staticChangedFlag = true;
    this.planDirty = this.fieldDirty = true;
    this.planNow();
    this.wake();
  }

  setBasemap({ graticule, style, tiles }: BasemapParams): void {
    this.graticule = graticule;
    if (style) this.basemapStyle = style;
    if (tiles) this.tileBasemap = tiles;
    this.gpu?.basemap.setStyle(this.basemapStyle);
    this.staticDirty = true;
    this.wake();
  }

  setParticles(params: ParticleParams): void {
    this.particleParams = { ...DEFAULT_PARTICLES, ...params };
    this.fieldDirty = true;
    this.trailsCleared = true;
    this.wake();
  }

  setShapes({ name, shapes }: { name: string; shapes: LonLatShapes | null }): void {
    if (shapes) this.shapes.set(name, shapes);
    else this.shapes.delete(name);
    if (this.gpu && (shapes || this.gpu.vector.made)) this.gpu.vector.get().setShapes(name, shapes);
    this.staticDirty = true;
    this.wake();
  }

  async setCapAlerts(params: { url: string } | null): Promise<{ areas: number; published: boolean }> {
    const request = ++this.capRequest;
    let areas: CapAlertArea[] = [];
    let published = true;
    if (params) {
      try {
        const response = await fetch(params.url.startsWith('/') ? `${this.origin}${params.url}` : params.url);
        // 404: nothing published yet, which the UI says with the setting (not an error).
        if (response.status === 404) published = false;
        else if (!response.ok) throw new Error(`HTTP ${response.status} for ${params.url}`);
        else areas = readAlertAreas(await response.json());
      } catch (error) {
        this.onEvent({ type: 'error', message: `Warnings not loaded: ${(error as Error).message}` });
      }
    }
    if (request !== this.capRequest) return { areas: this.capAreas.length, published };
    this.capAreas = areas;
    this.setShapes({ name: 'capAlerts', shapes: areas.length ? capAlertShapes(areas) : null });
    return { areas: areas.length, published };
  }

  async capAlertsAt({ lon, lat }: { lon: number; lat: number }): Promise<CapAlertAreaInfo[]> {
    return alertAreasAt(this.capAreas, lon, lat).map(({ id, severity, event, areaDesc }) => ({ id, severity, event, areaDesc }));
  }

  setLightning(params: { flashes: ArrayBuffer } | null): void {
    this.lightningMarks = params ? flashMarks(decodeFlashes(params.flashes)) : null;
    if (this.gpu) setPoints(this.gpu.lightning, this.lightningMarks);
    this.staticDirty = true;
    this.wake();
  }

  setFirespots(params: { lon: Float32Array; lat: Float32Array; frpMw: Float32Array } | null): void {
    this.fireMarks = params ? fireMarks(params.lon, params.lat, params.frpMw) : null;
    if (this.gpu) setPoints(this.gpu.firespots, this.fireMarks);
    this.staticDirty = true;
    this.wake();
  }

  setTideStations(params: { lon: Float32Array; lat: Float32Array } | null): void {
    this.tideMarks = params ? tideMarks(params.lon, params.lat) : null;
    if (this.gpu) setPoints(this.gpu.tideStations, this.tideMarks);
    this.staticDirty = true;
    this.wake();
  }

  setWebcams(params: { lon: Float32Array; lat: Float32Array; own: Uint8Array } | null): void {
    this.webcamMarks = params ? webcamMarks(params.lon, params.lat, params.own) : null;
    if (this.gpu) setPoints(this.gpu.webcams, this.webcamMarks);
    this.staticDirty = true;
    this.wake();
  }

  setMetars(params: { lon: Float32Array; lat: Float32Array; category: Int8Array } | null): void {
    this.metarMarks = params ? metarMarks(params.lon, params.lat, params.category) : null;
    if (this.gpu) setPoints(this.gpu.metars, this.metarMarks);
    this.staticDirty = true;
    this.wake();
  }

  setIsolines(params: IsolineParams | null): void {
    this.isolineParams = params;
    this.planDirty = this.staticDirty = true;
    this.planNow();
    this.wake();
  }

  setDebug({ skip, instanced }: { skip: DebugPass[]; instanced?: boolean }): void {
    this.skip = new Set(skip);
    if (instanced !== undefined && this.gpu) {
      this.gpu.particles.destroy();
      this.gpu.particles = createParticleLayer(this.gpu.regl, instanced && this.gpu.regl.hasExtension('ANGLE_instanced_arrays'));
    }
  }

  setFixedSteps(params: FixedStepsParams | null): void {
    this.fixed = params && new FixedSteps(params);
    this.staticDirty = this.fieldDirty = this.trailsCleared = true;
    this.wake();
  }

  /** Fixed steps: the picture changed, so the particles spawn again from the seed over clean trails. */
  private restartFixedSteps(): void {
    if (!this.fixed) return;
    this.fixed.restart();
    this.trailsCleared = true;
    if (this.fieldReady && this.particleSystem) {
      const onGlobe = !!this.view.globe;
      this.particlesOnGlobe = onGlobe;
      this.particleSystem.setSpawn(onGlobe ? 'sphere' : 'mercator');
      this.particleSystem.reset(particleCount(this.particleParams, this.view.width, this.view.height), this.view, this.fixed.seed, onGlobe ? globeParticleView(this.view) : undefined);
    }
  }

  setFrameCap({ fps }: { fps: number | null }): void {
    this.minFrameMs = fps === null ? 0 : SECOND_MS / clampFrameCap(fps);
  }

  setKernel({ kernel }: { kernel: Kernel }): void {
    this.kernel = kernel;
    this.frameStats.resetSteps();
  }

  async sampleAt({ lon, lat }: { lon: number; lat: number }): Promise<SampleResult> {
    const layer = this.layer;
    const plan = this.plan;
    if (!layer || !plan) throw new Error('No layer is shown yet');
    const { color } = layer;
    const empty: SampleResult = { value: null, layer: color.ident, metric: color.metric.ident, dataZoom: plan.z };
    // Wait for the tiles of the current data zoom under the point, so the answer is the finest there is.
    const own = tileAt(plan.z, lon, lat);
    await Promise.all([plan.before, plan.after].map((step) => this.tiles.settled(this.tileKey(layer, color.file, step, own))));
    const at = (step: number) => this.finestTileAt(color, step, plan.z, lon, lat);
    const a = at(plan.before);
    const b = plan.t > 0 ? at(plan.after) : a;
    if (!a || !b) return empty;
    const sampling = samplingOf(color.metric);
    if (sampling === 'nearest') {
      // A class field: the nearer step's code at the nearest node, as the raster draws it.
      const near = plan.t < 0.5 ? a : b;
      const s = sampleTile(near.data.header, channelsOf(near.data), lon, lat, sampling);
      return { value: s ? s[0] : null, layer: color.ident, metric: color.metric.ident, dataZoom: near.z };
    }
    const sa = sampleTile(a.data.header, channelsOf(a.data), lon, lat);
    const sb = plan.t > 0 ? sampleTile(b.data.header, channelsOf(b.data), lon, lat) : sa;
    if (!sa || !sb) return empty;
    const c = sa.map((v, i) => v + (sb[i] - v) * plan.t);
    if (color.vector) {
      const [u, v] = c;
      return { value: Math.hypot(u, v), u, v, direction: windDirection(u, v), layer: color.ident, metric: color.metric.ident, dataZoom: a.z };
    }
    const value = c[color.pickChannel ?? 0];
    return { value: Number.isNaN(value) ? null : value, layer: color.ident, metric: color.metric.ident, dataZoom: a.z };
  }

  stats(): RenderStats {
    return {
      ...this.frameStats.summary(performance.now()),
      particles: this.particleSystem?.count ?? 0,
      kernel: this.kernel,
      dataZoom: this.plan?.z ?? 0,
      tiles: { ...this.tiles.counts(), capacity: this.tiles.capacity },
      staticKept: this.gpu?.composite.kept().count ?? 0,
      contextLost: this.lost,
      renderer: this.gpu?.renderer ?? '',
      fixedSteps: this.fixed?.state(!this.running && !this.planDirty && !this.staticDirty && !this.fieldDirty
        && this.tiles.counts().loading === 0 && this.basemapLoads === 0 && this.basemap10m.loading() === 0, this.particlesOn() && this.fieldReady) ?? null,
    };
  }

  simulateContextLoss({ restoreAfterMs }: { restoreAfterMs: number }): void {
    const ext = this.gl?.getExtension('WEBGL_lose_context');
    if (!ext) throw new Error('WEBGL_lose_context is not available');
    ext.loseContext();
    setTimeout(() => ext.restoreContext(), restoreAfterMs);
  }

  /** Lets go of the canvas and everything on the GPU; the engine and the worker stay for the next init. */
  dispose(): void {
    this.generation++;
    this.disposed = true;
    this.tiles.clear();
    this.destroyGpu();
    this.gl = null;
    this.canvas = null;
    this.last = null;
    this.basemapDetail = null;
    this.basemapData = null;
    this.trailsCleared = true;
  }

  // ---------------------------------------------------------------------------------------------
  // GPU lifecycle

  private createGpu(): void {
    const gl = this.gl!;
    const regl = createREGL({
      gl,
      pixelRatio: 1,
      optionalExtensions: ['ANGLE_instanced_arrays', 'OES_element_index_uint'],
    });
    const t = frameTransform(this.view, this.view.pixelRatio);
    this.resizeCanvas(t);
    const debugInfo = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(debugInfo ? gl.getParameter(debugInfo.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    const software = isSoftwareRenderer(renderer);
    // Instancing on a CPU rasterizer runs one instance at a time: plain vertices there.
    const instanced = regl.hasExtension('ANGLE_instanced_arrays') && !software;
    this.gpu = {
      regl,
      basemap: createBasemapLayer(regl),
      tileBasemap: new Lazy(() => createTileBasemapLayer(regl, {
        origin: this.origin,
        onChange: () => {
          this.staticDirty = true;
          this.wake();
        },
        onError: (message) => this.onEvent({ type: 'error', message }),
        onPlaces: (places) => this.onEvent({ type: 'basemapPlaces', places }),
      })),
      raster: createRasterLayer(regl),
      noData: new Lazy(() => createNoDataLayer(regl)),
      particles: createParticleLayer(regl, instanced),
      isolines: new Lazy(() => createIsolineLayer(regl)),
      vector: new Lazy(() => createVectorLayer(regl)),
      firespots: new Lazy(() => createPointLayer(regl, 'disc')),
      tideStations: new Lazy(() => createPointLayer(regl, 'disc')),
      metars: new Lazy(() => createPointLayer(regl, 'disc')),
      lightning: new Lazy(() => createPointLayer(regl, 'plus')),
      webcams: new Lazy(() => createPointLayer(regl, 'disc')),
      globe: new Lazy(() => createGlobeLayer(regl, instanced)),
      software,
      composite: createCompositeLayer(regl, t.width, t.height),
      maxTextureSize: regl.limits.maxTextureSize,
      renderer,
    };
    this.gpu.basemap.setStyle(this.basemapStyle);
    if (this.basemapData) this.gpu.basemap.setData(this.basemapData);
    for (const [name, shapes] of this.shapes) this.gpu.vector.get().setShapes(name, shapes);
    setPoints(this.gpu.lightning, this.lightningMarks);
    setPoints(this.gpu.firespots, this.fireMarks);
    setPoints(this.gpu.tideStations, this.tideMarks);
    setPoints(this.gpu.webcams, this.webcamMarks);
    setPoints(this.gpu.metars, this.metarMarks);
    if (this.layer) this.gpu.raster.setScale(this.layer.color.colorScale, !!this.layer.color.vector, this.gpu.maxTextureSize, !!this.layer.color.metric.classes);
    this.last = null;
    this.trailsCleared = true;
    // The new GPU has no lines yet.
    this.isolinesMade = '';
  }

  private destroyGpu(): void {
    if (!this.gpu) return;
    if (!this.lost) this.gpu.regl.destroy();
    this.gpu = null;
  }

  private onContextLost(): void {
    // SPEC §8: context lost is reported; the renderer stops drawing until it comes back.
    this.lost = true;
    this.onEvent({ type: 'contextLost' });
    this.gpu = null;
    this.tiles.clear();
  }

  private onContextRestored(): void {
    this.lost = false;
    this.createGpu();
    // A basemap kept from before went to the new GPU in createGpu; without one, it is fetched again.
    if (!this.basemapData) {
      const detail = this.basemapDetail;
      this.basemapDetail = null;
      void this.loadBasemap(detail ?? '110m');
    }
    this.planDirty = this.staticDirty = this.fieldDirty = true;
    this.onEvent({ type: 'contextRestored' });
    this.wake();
  }

  private resizeCanvas(t: { width: number; height: number }): void {
    const canvas = this.canvas!;
    if (canvas.width !== t.width || canvas.height !== t.height) {
      canvas.width = t.width;
      canvas.height = t.height;
    }
  }

  private async loadBasemap(detail: '110m' | '50m'): Promise<void> {
    if (this.basemapDetail === detail || (this.basemapDetail === '50m' && detail === '110m')) return;
    this.basemapDetail = detail;
    this.basemapLoads++;
    try {
      const response = await fetch(`${this.origin}/generated/basemap/${detail}.bin`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const basemap = decodeBasemap(await response.arrayBuffer());
      if (this.basemapDetail !== detail) return;
      this.basemapData = basemap;
      if (!this.gpu) return;
      this.gpu.basemap.setData(basemap);
      this.staticDirty = true;
      this.wake();
    } catch (error) {
      this.onEvent({ type: 'error', message: `Basemap ${detail} failed to load: ${(error as Error).message}` });
    } finally {
      this.basemapLoads--;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Tiles

  /** A tile of the layer's source (at the layer's level unless said); acRange goes with the colour file's tiles only. */
  private tileRequest(layer: ResolvedLayer, file: string, validTime: number, address: TileAddress, level = layer.level): SourcedTile {
    return {
      source: layer.source,
      tile: { file, level, validTime, address, acRange: file === layer.color.file && level === layer.level ? layer.acRange : undefined },
    };
  }

  private tileKey(layer: ResolvedLayer, file: string, validTime: number, address: TileAddress, level = layer.level): string {
    const { source, tile } = this.tileRequest(layer, file, validTime, address, level);
    return source.key(tile);
  }

  /** The field the isolines contour, where they are on and the layer's product offers them. */
  private isolineField(layer: ResolvedLayer): IsolineSource | null {
    const params = this.isolineParams;
    if (!params || !layer.product.isolines.includes(params.type)) return null;
    return isolineSource(params.type, layer.level);
  }

  private async loadTile(source: TileSource, tile: TileRequest, signal: AbortSignal): Promise<TileData> {
    const bytes = await source.load(tile, signal);
    const engine = await this.engineReady;
    this.milestone('firstTileFetched');
    const handle = engine.decodeTile(bytes);
    const data: TileData = { handle, header: handle.header, texture: null, bytes };
    if (this.gpu) this.uploadTexture(data, engine.texels(handle));
    return data;
  }

  private uploadTexture(data: TileData, texels: Uint8Array): void {
    data.texture = createTileTexture(this.gpu!.regl, texels, data.header.width, data.header.height);
    data.bytes = null;
  }

  async openGrib({ name, bytes }: { name: string; bytes: ArrayBuffer }): Promise<LocalGribSummary> {
    const engine = await this.engineReady;
    const id = String(++this.localCount);
    const local = await LocalGribProduct.open(engine, new Uint8Array(bytes), name, id);
    this.localFiles.set(local.summary.product.ident, local);
    return local.summary;
  }

  closeGrib({ product }: { product: string }): void {
    const local = this.localFiles.get(product);
    if (!local) return;
    this.localFiles.delete(product);
    local.dispose();
    if (this.layer?.product.ident === product) {
      this.layer = null;
      this.tiles.clear();
    }
  }

  /** The tile's texture, made now if the tile arrived before the canvas did. */
  private textureOf(data: TileData): REGL.Texture2D | null {
    if (!data.texture && data.bytes && this.gpu && this.engine) {
      const again = this.engine.decodeTile(data.bytes);
      this.uploadTexture(data, this.engine.texels(again));
      this.engine.releaseTile(again);
    }
    return data.texture;
  }

  /** Plans the tiles of the view as soon as both a layer and a view are known, canvas or not. */
  private planNow(): void {
    if (!this.layer || !this.planDirty || this.view.width <= 1) return;
    this.planDirty = false;
    this.planTiles();
  }

  /** Files the layer needs: the colour layer's and, if different, the particles'. */
  private files(layer: ResolvedLayer): string[] {
    return layerFiles(layer.color, layer.particles, this.particlesOn());
  }

  private planTiles(): void {
    const layer = this.layer;
    if (!layer) return;
    const view = this.view;
    const z = dataZoomFor(layer.product, view.zoom, layer.premium);
    const plan = view.globe ? globePlanFor(view, z, layer.calendar, this.time) : planFor(view, z, layer.calendar, this.time);
    if (!sameRange(this.plan?.range, plan.range)) this.fieldDirty = true;
    this.plan = plan;
    const { load, keep } = planTiles(plan, this.files(layer), layer.color.file, (file, step, address) => this.tileRequest(layer, file, step, address));
    const iso = this.isolineField(layer);
    if (iso) {
      const lines = planTiles(plan, [iso.file], iso.file, (file, step, address) => this.tileRequest(layer, file, step, address, iso.level)).load;
      load.push(...lines);
      keep.push(...lines);
    }
    for (const request of load) this.tiles.request(request.source.key(request.tile), request);
    this.tiles.pin(keep.map((request) => request.source.key(request.tile)));
  }

  /**
   * The globe has no "No data!" square to draw over a failed colour tile: a coarser tile stands in
   * for it (tilePlan.ts failedStandIns), asked for here; the plan keeps the colour parents already.
   */
  private requestStandIns(): void {
    const layer = this.layer;
    const plan = this.plan;
    if (!layer || !plan) return;
    const file = layer.color.file;
    for (const { step, address } of failedStandIns(plan, (at, tile) => this.tiles.state(this.tileKey(layer, file, at, tile)))) {
      const request = this.tileRequest(layer, file, step, address);
      this.tiles.request(request.source.key(request.tile), request);
    }
  }

  /** The finest loaded tile of a render layer at `step` covering a point, from data zoom z down to 0. */
  private finestTileAt(render: RenderLayer, step: number, z: number, lon: number, lat: number): { z: number; data: TileData } | null {
    const layer = this.layer!;
    for (const address of tilesAt(z, lon, lat)) {
      const data = this.tiles.data(this.tileKey(layer, render.file, step, address));
      if (data) return { z: address.z, data };
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // Frame

  private particlesOn(): boolean {
    return this.particleParams.anim !== 'off' && !!this.layer?.particles;
  }

  private wake(): void {
    if (this.running || this.disposed || this.lost) return;
    this.running = true;
    // Under a frame cap, the next frame waits until its interval has passed since the last one began.
    const wait = this.lastFrameAt + this.minFrameMs - performance.now();
    if (wait > 1) setTimeout(() => raf(() => this.frame()), wait);
    else raf(() => this.frame());
  }

  private frame(): void {
    this.running = false;
    this.lastFrameAt = performance.now();
    if (this.disposed || this.lost || !this.gpu) return;
    try {
      this.drawFrame();
    } catch (error) {
      // One bad frame must not stop the map: report it and try again on the next change.
      console.error(error);
      this.onEvent({ type: 'error', message: `Frame failed: ${(error as Error).message}` });
    }
  }

  private drawFrame(): void {
    if (!this.gpu) return;
    if (this.view.globe) {
      this.drawGlobeFrame();
      return;
    }
    const started = performance.now();
    const t = frameTransform(this.view, this.view.pixelRatio);
    const gpu = this.gpu;
    const last = this.last;
    const { staticChanged, fieldChanged } = this.prepareFrame(t, last, () => this.drawStatic(t), true);

    // Fixed steps all drawn and nothing changed: the canvas holds its pixels until the next change.
    if (this.fixed?.done && !staticChanged && !fieldChanged) return;
    // (With 0 fixed steps the picture shows no particles.)
    const animating = this.particlesOn() && this.fieldReady && !!this.particleSystem && !this.fixed?.done;
    // The canvas holds last frame's trails; they survive a pan (moved along) or a change of the
    // layer under them (they fade into it), not a zoom or a resize.
    const keepTrails = animating && !!last && !this.trailsCleared && isPanOnly(last, t);
    if (!keepTrails) {
      if (staticChanged || this.trailsCleared || !animating) gpu.composite.reset();
      this.trailsCleared = !animating;
    } else {
      const shift = panShift(last, t);
      if (shift[0] !== 0 || shift[1] !== 0) gpu.composite.shift(shift);
    }
    if (animating) {
      const p = this.particleParams;
      const fade = trailFade(p, gpu.software);
      if (keepTrails && !this.skip.has('fade') && (this.fixed?.drawn ?? this.frameStats.frames) % fade.every === 0) gpu.composite.fade(fade.keep);
      const s0 = performance.now();
      const system = this.particleSystem!;
      const vertices = this.skip.has('step') ? system.vertices() : system.step(t.view, particleSpeed(p, t.worldPx, t.pixelRatio), this.kernel);
      this.frameStats.step(performance.now() - s0);
      if (!this.skip.has('segments')) {
        gpu.particles.upload(vertices, system.count);
        gpu.particles.draw(
          {
            worldPx: t.worldPx,
            canvas: [t.width, t.height],
            centerLat: t.view.lat,
            taylor: t.view.zoom >= TAYLOR_FROM_ZOOM,
            merc: mercatorTaylor(t.view.lat),
            copies: particleCopies(t.worldPx, t.width),
          },
          particleStyle(p, t.pixelRatio),
        );
      }
      if (this.frameStats.particlesDrawn()) this.onEvent({ type: 'firstParticles', at: this.frameStats.firstParticlesAt! });
    }
    this.last = t;
    this.frameStats.frame(started, performance.now() - started);
    // Keep animating while particles move; otherwise sleep until something changes.
    if (animating && (!this.fixed || this.fixed.stepDrawn())) this.wake();
  }

  /** Rebuilds the particle field from the loaded wind tiles of the two steps around the time. */
  private buildField(): void {
    const layer = this.layer;
    const plan = this.plan;
    const system = this.particleSystem;
    if (!layer?.particles || !plan || !system || !this.particlesOn()) {
      this.fieldReady = false;
      return;
    }
    const file = layer.particles.file;
    const { range } = plan;
    let loaded = 0;
    const cells = TILE_NODES - 1;
    const { first, count: cols } = fieldColumns(range);
    const rows = range.r1 - range.r0 + 1;
    system.setGrid({
      lon0: -180 + first * tileSpan(plan.z),
      lat0: 90 - range.r0 * tileSpan(plan.z),
      dlon: tileSpan(plan.z) / cells,
      dlat: tileSpan(plan.z) / cells,
      nx: range.global ? cols * cells : cols * cells + 1,
      ny: rows * cells + 1,
      wrap: range.global,
    });
    const seen = new Set<string>();
    for (const tile of plan.visible) {
      const key = `${tile.x}/${tile.y}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const a = this.tiles.data(this.tileKey(layer, file, plan.before, tile));
      const b = plan.t > 0 ? this.tiles.data(this.tileKey(layer, file, plan.after, tile)) : a;
      const x = fieldColumnOf(tile, range) * cells;
      const y = (tile.y - range.r0) * cells;
      if (a && b) {
        system.writeTile({ a: a.handle, b: b.handle, t: plan.t, x, y });
        loaded++;
        continue;
      }
      // The new time's wind has not arrived: the particles keep moving on the step shown before.
      const shown = this.shownStep !== null && this.shownStep !== plan.before ? this.tiles.data(this.tileKey(layer, file, this.shownStep, tile)) : null;
      if (!shown) continue;
      system.writeTile({ a: shown.handle, b: shown.handle, t: 0, x, y });
      loaded++;
    }
    system.finishGrid();
    this.fieldReady = loaded > 0;
    if (this.fieldReady) this.milestone('field');
    const count = particleCount(this.particleParams, this.view.width, this.view.height);
    const onGlobe = !!this.view.globe;
    if (this.fieldReady && (system.count !== count || onGlobe !== this.particlesOnGlobe)) {
      this.particlesOnGlobe = onGlobe;
      system.setSpawn(onGlobe ? 'sphere' : 'mercator');
      system.reset(count, this.view, undefined, onGlobe ? globeParticleView(this.view) : undefined);
    }
  }

  /** Draws the flat map's static layer; whether the plan's own data shows in it. */
  private drawStatic(t: FrameTransform): boolean {
    const gpu = this.gpu!;
    const { regl } = gpu;
    let ownData = false;
    regl({ framebuffer: gpu.composite.staticTarget })(() => {
      regl.clear({ color: [...gpu.basemap.palette().sea] });
      const cells = this.basemap10m.cellsFor(t);
      gpu.basemap.drawFill(t, cells);
      const tileMap = tileBasemapFor(this.tileBasemap, t.view.zoom) || gpu.tileBasemap.made ? gpu.tileBasemap.get().draw(t, this.tileBasemap) : false;
      const frame = this.rasterFrame(t);
      ownData = frame.ownData;
      const { draws, noData } = frame;
      gpu.raster.draw(draws, tileMap ? WEATHER_OVER_TILE_MAP_OPACITY : 1);
      if (noData.length) gpu.noData.get().draw(noData, t.pixelRatio);
      if (this.updateIsolines(t.view.zoom)) gpu.isolines.get().draw(t);
      gpu.basemap.drawLines(t, { graticule: this.graticule }, cells);
      const vector = gpu.vector.made;
      if (vector && !vector.empty) vector.draw(t, gpu.composite.staticTarget);
      for (const points of pointLayers(gpu)) points.draw(t);
    });
    return ownData;
  }

  /**
   * Isolines over the colour layer: contoured again when what they are made of changed (the tiles
   * in view, the steps and the blend, the type, the unit), their labels placed again on a new zoom.
   * Whether there are lines to draw.
   */
  private updateIsolines(zoom: number): boolean {
    const gpu = this.gpu!;
    const layer = this.layer;
    const plan = this.plan;
    const params = this.isolineParams;
    const iso = layer && plan && params ? this.isolineField(layer) : null;
    if (!layer || !plan || !params || !iso || !this.engine) {
      if (this.isolinesMade) {
        this.isolinesMade = '';
        this.isolineSet = null;
        gpu.isolines.made?.setLines(null);
        this.isolineLabelsZoom = null;
        this.onEvent({ type: 'isolineLabels', labels: [], markers: [] });
      }
      return false;
    }
    const blend = Math.round(plan.t / ISOLINE_BLEND_STEP) * ISOLINE_BLEND_STEP;
    const values = (address: TileAddress): Float32Array | null => {
      const a = this.tiles.data(this.tileKey(layer, iso.file, plan.before, address, iso.level));
      if (!a) return null;
      const b = blend > 0 ? this.tiles.data(this.tileKey(layer, iso.file, plan.after, address, iso.level)) ?? a : a;
      const va = a.handle.channel(0);
      if (b === a) return va;
      const vb = b.handle.channel(0);
      const out = new Float32Array(va.length);
      for (let i = 0; i < va.length; i++) out[i] = va[i] + (vb[i] - va[i]) * blend;
      return out;
    };
    const loaded = plan.visible.filter((tile) => this.tiles.data(this.tileKey(layer, iso.file, plan.before, tile, iso.level))).length;
    const { range } = plan;
    const made = [params.type, params.unit, iso.file, iso.level, range.z, range.c0, range.c1, range.r0, range.r1, plan.before, plan.after, blend, loaded].join('|');
    if (made !== this.isolinesMade) {
      this.isolinesMade = made;
      this.isolineSet = buildIsolines(this.engine, assembleGrid(plan, values), params.type, params.unit);
      gpu.isolines.get().setLines(this.isolineSet);
      this.isolineLabelsZoom = null;
    }
    // Placed again each half zoom level: in between, the spacing on screen changes little.
    const labelZoom = Math.round(zoom * 2) / 2;
    if (this.isolineSet && this.isolineLabelsZoom !== labelZoom) {
      this.isolineLabelsZoom = labelZoom;
      this.onEvent({ type: 'isolineLabels', labels: labelPlaces(this.isolineSet, labelZoom), markers: this.isolineSet.extrema });
    }
    return true;
  }

  /** The colour raster's quads of this frame; once the plan's own data shows, it is the step shown. */
  private rasterFrame(t: FrameTransform, rectOf?: (tile: VisibleTile) => Vec4 | null): ReturnType<typeof rasterDraws> {
    const layer = this.layer;
    const plan = this.plan;
    if (!layer || !plan) return { draws: [], noData: [], ownData: false };
    const file = layer.color.file;
    const frame = rasterDraws(t, plan, {
      loaded: (step, address): LoadedTile | null => {
        const data = this.tiles.data(this.tileKey(layer, file, step, address));
        const texture = data && this.textureOf(data);
        return data && texture ? { header: data.header, texture } : null;
      },
      failed: (step, address) => this.tiles.state(this.tileKey(layer, file, step, address)) === 'failed',
    }, this.shownStep, rectOf);
    if (frame.ownData) this.shownStep = plan.before;
    return frame;
  }

  /**
   * The key of the flat map's static layer at this time among the kept pictures, or null where it
   * is not kept. Kept for the observation loops (radar, satellite), which play the same few frames
   * over and over; not for a forecast, whose playback moves on through many times, each kept
   * picture GPU memory that a phone shares with everything else; nor with isolines (their labels
   * follow each contouring, which drawStatic runs).
   */
  private staticKey(): string | null {
    const layer = this.layer;
    if (!layer || (layer.product !== RADAR_PRODUCT && layer.product !== SATELLITE_PRODUCT)) return null;
    if (this.isolineParams && this.isolineField(layer)) return null;
    return `${this.staticGeneration}|${this.time}`;
  }

  // ---------------------------------------------------------------------------------------------
  // The globe (SPEC §2 window "globe"): the same passes as drawFrame, projected orthographically.

  /**
   * The passes before the particles, the same on the flat map and the globe: the canvas follows
   * the frame's size, the tiles are planned, the particle field built and the static layer drawn
   * (`drawStatic`) where each changed. Says what changed.
   */
  private prepareFrame(
    size: { width: number; height: number }, last: { width: number; height: number } | null,
    /** Draws the static layer; whether the plan's own data shows in it. */
    drawStatic: () => boolean,
    /** The flat map: its static layer may be kept per time (staticKey, composite.ts); the globe's is drawn every time. */
    keep = false,
  ): { staticChanged: boolean; fieldChanged: boolean } {
    const gpu = this.gpu!;
    if (!last || last.width !== size.width || last.height !== size.height) {
      this.resizeCanvas(size);
      // regl reads the drawing buffer size only when polled; we drive frames ourselves.
      gpu.regl.poll();
      gpu.composite.resize(size.width, size.height);
      this.staticDirty = true;
    }
    if (this.planDirty) {
      this.planDirty = false;
      this.planTiles();
    }
    const fieldChanged = this.fieldDirty;
    if (this.fieldDirty) {
      this.fieldDirty = false;
      this.buildField();
    }
    const staticChanged = this.staticDirty;
    if (staticChanged || fieldChanged) this.restartFixedSteps();
    if (this.staticDirty) {
      this.staticChangedFlag = false;
      if (this.keptGeneration !== this.staticGeneration) {
        this.keptGeneration = this.staticGeneration;
        gpu.composite.forget();
      }
      const key = keep ? this.staticKey() : null;
      if (key !== null && gpu.composite.recall(key)) {
        // Kept only when complete: the plan's own data shows.
        this.shownStep = this.plan?.before ?? this.shownStep;
      } else {
        gpu.composite.drawing();
        const r0 = performance.now();
        const ownData = drawStatic();
        this.milestone('firstStatic');
        this.frameStats.rasterMs = performance.now() - r0;
        if (key !== null && ownData && this.basemapLoads === 0) {
          const tiles = this.tiles.counts();
          if (tiles.loading === 0 && tiles.failed === 0) gpu.composite.remember(key);
        }
      }
    }
    return { staticChanged, fieldChanged };
  }

  private drawGlobeFrame(): void {
    const gpu = this.gpu!;
    const started = performance.now();
    const f = globeFrame(this.view, this.view.pixelRatio);
    const last = this.lastGlobe;
    const { staticChanged, fieldChanged } = this.prepareFrame(f, last, () => this.drawGlobeStatic(f));
    // Render tests' fixed steps, as drawFrame.
    if (this.fixed?.done && !staticChanged && !fieldChanged) return;
    const animating = this.particlesOn() && this.fieldReady && !!this.particleSystem && !this.fixed?.done;
    // A turn or a zoom of the globe moves every trail differently: they start again.
    const keepTrails = animating && !this.trailsCleared && sameGlobe(last, f);
    if (!keepTrails) {
      if (staticChanged || this.trailsCleared || !animating) gpu.composite.reset();
      this.trailsCleared = !animating;
    }
    if (animating) {
      const p = this.particleParams;
      const fade = trailFade(p, gpu.software);
      if (keepTrails && !this.skip.has('fade') && (this.fixed?.drawn ?? this.frameStats.frames) % fade.every === 0) gpu.composite.fade(fade.keep);
      const s0 = performance.now();
      const system = this.particleSystem!;
      const vertices = this.skip.has('step')
        ? system.vertices()
        : system.step(this.view, particleSpeed(p, f.worldPx, f.pixelRatio), this.kernel, globeParticleView(this.view));
      this.frameStats.step(performance.now() - s0);
      if (!this.skip.has('segments')) {
        const globe = gpu.globe.get();
        globe.uploadParticles(vertices, system.count);
        globe.drawParticles(f, particleStyle(p, f.pixelRatio));
      }
      if (this.frameStats.particlesDrawn()) this.onEvent({ type: 'firstParticles', at: this.frameStats.firstParticlesAt! });
    }
    this.lastGlobe = f;
    this.frameStats.frame(started, performance.now() - started);
    if (animating && (!this.fixed || this.fixed.stepDrawn())) this.wake();
  }

  /** Space, the disc, land, the colour raster (its own inverse projection), then lines. A failed tile shows a coarser one (requestStandIns). */
  /** Draws the globe's static layer; whether the plan's own data shows in it. */
  private drawGlobeStatic(f: GlobeFrame): boolean {
    const gpu = this.gpu!;
    const { regl } = gpu;
    let ownData = false;
    regl({ framebuffer: gpu.composite.staticTarget })(() => {
      regl.clear({ color: GLOBE_COLORS.space });
      const globe = gpu.globe.get();
      globe.drawDisc(f);
      const meshes = gpu.basemap.meshes();
      globe.drawFill(f, meshes);
      const { draws, ownData: own } = this.rasterFrame(frameTransform(this.view, this.view.pixelRatio), (tile) => globeTileRect(f, tile));
      ownData = own;
      gpu.raster.draw(draws, 1, { view: [f.center[0], f.center[1], f.center[2], f.radius], canvasHalf: [f.width / 2, f.height / 2] });
      if (this.updateIsolines(f.view.zoom)) gpu.isolines.get().drawGlobe(f);
      globe.drawLines(f, meshes, this.graticule ? graticuleStep(f.view.zoom) : null);
      const vector = gpu.vector.made;
      if (vector && !vector.empty) vector.drawGlobe(f, gpu.composite.staticTarget);
      for (const points of pointLayers(gpu)) points.drawGlobe(f);
    });
    return ownData;
  }
}

/** Gives a point layer its marks, making it only when there are marks (none: nothing to clear in a layer never made). */
function setPoints(layer: Lazy<PointLayer>, marks: PointSet | null): void {
  if (marks || layer.made) layer.get().setPoints(marks);
}

/** The point layers made so far, drawn in this order: tide stations, fires, webcams, METARs, lightning. */
function pointLayers(gpu: Gpu): PointLayer[] {
  const layers: PointLayer[] = [];
  for (const lazy of [gpu.tideStations, gpu.firespots, gpu.webcams, gpu.metars, gpu.lightning]) {
    if (lazy.made) layers.push(lazy.made);
  }
  return layers;
}

/** Renderer strings of CPU rasterizers. */
function isSoftwareRenderer(renderer: string): boolean {
  return /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Microsoft Basic Render/i.test(renderer);
}

function channelsOf(data: TileData): Float32Array[] {
  return Array.from({ length: data.header.channels }, (_, c) => data.handle.channel(c));
}
