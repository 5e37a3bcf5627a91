/**
 * The one typed API of the render worker (STYLE.md habit 1). The UI imports only these types and
 * talks to the worker through comlink; each method takes one params object; large buffers are
 * transferred, never cloned. The worker owns the OffscreenCanvas, regl, the WASM engine, the tile
 * cache and the layers.
 */

import type { OfflineBasemapStyle } from '../common/basemapStyles.ts';
import type { TileBasemapChoice } from './layers/basemap/tileBasemap.ts';
import type { Product } from '../common/catalogue/products.ts';
import type { FixedStepsParams, FixedStepsState } from './fixedSteps.ts';
import type { IsolineType } from '../common/isolines.ts';
import type { RadarStep } from '../common/radar.ts';
import type { SatelliteStep } from '../common/satellite.ts';

export type Kernel = 'simd' | 'scalar' | 'ts';
export type DebugPass = 'fade' | 'segments' | 'step';

export interface ViewParams {
  /** Centre longitude (any value, wraps), latitude, fractional zoom (SPEC §9: 3..16). */
  lon: number;
  lat: number;
  zoom: number;
  /** Viewport in CSS pixels and the device pixel ratio (capped at 2 by the worker, SPEC §9). */
  width: number;
  height: number;
  pixelRatio: number;
  /**
   * SPEC §2 window "globe": the orthographic globe (common/globe.ts) centred on lon/lat, its zoom
   * in the globe's range (GLOBE_MIN_ZOOM..GLOBE_MAX_ZOOM); absent or false: the flat map.
   */
  globe?: boolean;
}

export interface InitParams {
  canvas: OffscreenCanvas;
  view: ViewParams;
  /** At most this many frames a second (common/frameCap.ts); absent: the display's rate. */
  frameCap?: number | null;
}

export interface InitResult {
  renderer: string;
  maxTextureSize: number;
  simd: boolean;
  pixelRatio: number;
}

/** What the map shows: product, overlay and level idents of common/catalogue, and the time. */
export interface LayerParams {
  product: string;
  overlay: string;
  level: string;
  /** The run's reference time and its valid times (ms), from the minifest. */
  refTime: number;
  timestamps: number[];
  /**
   * The run's tile files and their levels (the minifest's `layers`, common/minifest.ts Calendar):
   * the worker asks for no file the run lacks. Absent: every catalogue file (the demo product).
   */
  layers?: Readonly<Record<string, readonly string[]>>;
  /** Shown time in ms; between two steps the worker blends them. */
  time: number;
  /** SPEC §3 acRange: an accumulation overlay's range in hours from the shown time (ignored by other overlays). */
  acRange?: number;
  premium: boolean;
  /** A subscriber's bearer token: the server serves Premium tiles (higher zoom, premium days) only with it (server/auth/tier.ts). */
  token?: string | null;
}

/**
 * The radar overlay (SPEC §1): the steps of the radar timeline (common/radar.ts radarSteps), each
 * drawn as its providers' frames merged; the shown time is one of their times.
 */
export interface RadarParams {
  /** radar or radarPlus. */
  overlay: string;
  steps: RadarStep[];
  time: number;
  premium: boolean;
  /** A subscriber's bearer token: radar history past the free window is served with it only. */
  token?: string | null;
}

/**
 * The satellite overlay (SPEC §1): the steps of the satellite timeline (common/satellite.ts
 * satelliteSteps), each drawn from its satellites' frames; the shown time is one of their times.
 */
export interface SatelliteParams {
  steps: SatelliteStep[];
  /** Sub-satellite longitude of each source (info.json `sources`). */
  lon0: Record<string, number>;
  time: number;
  premium: boolean;
  /** A subscriber's bearer token: satellite history past the free window is served with it only. */
  token?: string | null;
}

export interface ParticleParams {
  /** SPEC §3 particles: multiplier, velocity, width, blending, opacity, each 0..2 (1 = default). */
  multiplier: number;
  velocity: number;
  width: number;
  blending: number;
  opacity: number;
  /** SPEC §3 particlesAnim: on, off or intensive. */
  anim: 'on' | 'off' | 'intensive';
}

export interface SampleResult {
  /** The colour layer's value in its metric's base unit (vector layers: the speed); null = no data. */
  value: number | null;
  /** Vector layers: components (base unit) and the direction the wind blows from, degrees. */
  u?: number;
  v?: number;
  direction?: number;
  /** Render layer ident and metric ident of the value. */
  layer: string;
  metric: string;
  /** Which data zoom answered. */
  dataZoom: number;
}

export type TileState = 'loading' | 'loaded' | 'failed';

export interface RenderStats {
  /** Frames drawn per second over the last second. */
  fps: number;
  /** Worker CPU time per frame (ms), median and 95th percentile over the last 120 frames. */
  frameMsP50: number;
  frameMsP95: number;
  /** Particle step time (ms), median over the last 120 steps. */
  stepMsP50: number;
  /** Raster layer redraw time (ms), last one. */
  rasterMs: number;
  particles: number;
  kernel: Kernel;
  frames: number;
  dataZoom: number;
  tiles: { total: number; loading: number; loaded: number; failed: number; capacity: number };
  /** Pictures of the static layer kept for the times already drawn (layers/composite/composite.ts). */
  staticKept: number;
  /** performance.timeOrigin + now() of the first frame that showed particles, or null. */
  firstParticlesAt: number | null;
  /** Start-up milestones, performance.timeOrigin + now() in ms: where the first second goes. */
  milestones: Record<string, number>;
  contextLost: boolean;
  renderer: string;
  /** The render tests' fixed particle steps (setFixedSteps), or null while the map animates freely. */
  fixedSteps: FixedStepsState | null;
}

/** An H or L marker at a pressure extremum, its value in the user's unit. */
export interface IsolineMarker {
  kind: 'H' | 'L';
  lon: number;
  lat: number;
  text: string;
}

/** Where an isoline may carry its value. */
export interface IsolineLabelPlace {
  lon: number;
  lat: number;
  /** Screen angle of the text, degrees clockwise, kept upright (-90..90). */
  angle: number;
  text: string;
  heavy: boolean;
}

/** A place name of the tile base map (Protomaps schema layer `places`), in the user's language. */
export interface BasemapPlace {
  /** name:{lang}, else the local name. */
  name: string;
  /** The local name (the feature's `name`). */
  localName: string;
  lon: number;
  lat: number;
  /** Protomaps kind: country, region, locality, neighbourhood ... */
  kind: string;
  /** Protomaps population_rank: higher first. */
  rank: number;
  /** Protomaps min_zoom: shown from this map zoom. */
  minZoom: number;
}

/** Isolines to draw (SPEC §3 isolinesType), with the user's unit of their metric (SPEC §9). */
export interface IsolineParams {
  type: IsolineType;
  unit: string;
}

/**
 * Vector shapes in longitude/latitude drawn over the weather (workers/layers/vector): the
 * hurricanes overlay's tracks, forecast points and cones, and any other layer's. Flat arrays:
 * `points` [lon, lat, lon, lat, ...] (longitudes may run past 180 to stay continuous); `colors`
 * [r, g, b, a, ...] 0-1, straight alpha, one per point (a line's segment takes its start's);
 * `rings` simple rings (convex or not; closed or not) [lon, lat, ...] whose union is filled once.
 */
export interface LonLatShapes {
  lines: { points: number[]; colors: number[]; widthPx: number }[];
  points: { points: number[]; colors: number[]; radiusPx: number }[];
  fills: { rings: number[][]; color: [number, number, number, number] }[];
}

export type RenderEvent =
  | { type: 'firstParticles'; at: number }
  /** The isolines' label places and H/L markers for the view's zoom (the page places them: ui/labels/isolineLabels.ts). */
  | { type: 'isolineLabels'; labels: IsolineLabelPlace[]; markers: IsolineMarker[] }
  /** The place names of the tile base map drawn now, highest rank first (ui/labels/basemapLabels.ts places them); empty when none is drawn. */
  | { type: 'basemapPlaces'; places: BasemapPlace[] }
  | { type: 'tileFailed'; url: string; message: string }
  | { type: 'contextLost' }
  | { type: 'contextRestored' }
  | { type: 'error'; message: string };

/** A GRIB2 file opened in the browser (workers/local/localGrib.ts). */
export interface LocalGribSummary {
  /** Its own product definition, directory `local/{id}`; pass product.ident to setLayer. */
  product: Product;
  refTime: number;
  timestamps: number[];
  overlays: string[];
  fields: number;
  skipped: string[];
}

/** The base map (SPEC §2 Map, common/basemapStyles.ts): fields left out keep their value. */
export interface BasemapParams {
  graticule: boolean;
  /** The offline Natural Earth map's colours. */
  style?: OfflineBasemapStyle;
  /** The tile base map of the map setting (drawn above DETAIL_MAP_ZOOM), the topoMap overlay, the configured sources, the label language. */
  tiles?: TileBasemapChoice;
}

export interface RenderApi {
  /** Attaches the canvas; layer and view may be set before, tiles start loading at once. */
  init(params: InitParams): Promise<InitResult>;
  /** Registers the listener for worker events (pass it through comlink.proxy). */
  listen(listener: (event: RenderEvent) => void): void;
  setView(params: ViewParams): void;
  setLayer(params: LayerParams): void;
  /** Shows the radar composite instead of a product's layer (setLayer goes back to a product). */
  setRadar(params: RadarParams): void;
  setSatellite(params: SatelliteParams): void;
  /** No weather layer (the capAlerts overlay: the warnings alone over the base map). */
  clearLayer(): void;
  setTime(params: { time: number }): void;
  setParticles(params: ParticleParams): void;
  /** Isolines over the colour layer; null: none. */
  setIsolines(params: IsolineParams | null): void;
  /**
   * The warnings layer (SPEC §3 capAlerts): the published areas' GeoJSON to fetch and draw (URL of
   * /obs/v1.0/warnings/capAlerts.geojson), null to draw none. Answers how many areas are drawn, and
   * `published` false when the server has no such file (no warning source has delivered yet).
   */
  setCapAlerts(params: { url: string } | null): Promise<{ areas: number; published: boolean }>;
  /** The warning areas under a place, most severe first (the picker). */
  capAlertsAt(params: { lon: number; lat: number }): Promise<CapAlertAreaInfo[]>;
  /** Basemap options (SPEC §2 Map: graticule toggle, base maps). */
  setBasemap(params: BasemapParams): void;
  /** Vector shapes of one named set (`storms` ...) over the weather; null removes the set. */
  setShapes(params: { name: string; shapes: LonLatShapes | null }): void;
  sampleAt(params: { lon: number; lat: number }): Promise<SampleResult>;
  /**
   * Lightning of the last hour over whatever overlay shows (setting blitzOn): a flash file
   * (common/obs/flashes.ts), transferred; null: none.
   */
  setLightning(params: { flashes: ArrayBuffer } | null): void;
  /** Fire detections (SPEC §3 pois "firespots"): lon, lat degrees and FRP MW (NaN: none) per spot; null: none. */
  setFirespots(params: { lon: Float32Array; lat: Float32Array; frpMw: Float32Array } | null): void;
  /** Tide stations (SPEC §3 pois "tide"): lon, lat degrees per station; null: none. */
  setTideStations(params: { lon: Float32Array; lat: Float32Array } | null): void;
  /** Webcams (SPEC §3 pois "cams"): lon, lat degrees per webcam, own 1 for the user's own; null: none. */
  setWebcams(params: { lon: Float32Array; lat: Float32Array; own: Uint8Array } | null): void;
  /** METAR stations (SPEC §3 pois "metars"): lon, lat degrees and flight category (common/aviation FLIGHT_CATEGORIES index, -1 none) per station; null: none. */
  setMetars(params: { lon: Float32Array; lat: Float32Array; category: Int8Array } | null): void;
  stats(): RenderStats;
  /** At most `fps` frames a second while animating (common/frameCap.ts); null: the display's rate. */
  setFrameCap(params: { fps: number | null }): void;
  /** Switches the particle kernel (the /debug window and the bench compare them). */
  setKernel(params: { kernel: Kernel }): void;
  /**
   * /debug and the frame harness: leave out passes to see what each one costs; `instanced` forces
   * the particle drawing of real GPUs (quads) or of software GL (lines).
   */
  setDebug(params: { skip: DebugPass[]; instanced?: boolean }): void;
  /**
   * Render tests (tests/render): particles from `seed`, exactly `steps` particle steps drawn after
   * each change of the picture, then the loop holds (stats().fixedSteps.held); null animates again.
   */
  setFixedSteps(params: FixedStepsParams | null): void;
  /** Test hook: loses the WebGL context through WEBGL_lose_context, restores it after `restoreAfterMs`. */
  simulateContextLoss(params: { restoreAfterMs: number }): void;
  /** Decodes a GRIB2 file in the worker (the bytes are transferred, never uploaded). */
  openGrib(params: { name: string; bytes: ArrayBuffer }): Promise<LocalGribSummary>;
  /** Forgets an opened file. */
  closeGrib(params: { product: string }): void;
  /** Detaches the canvas and frees the GPU; the worker and its engine stay for the next init. */
  dispose(): void;
}

/** A warning area under a place (workers/layers/capAlerts). */
export interface CapAlertAreaInfo {
  id: string;
  severity: 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown';
  event: string;
  areaDesc: string;
}
