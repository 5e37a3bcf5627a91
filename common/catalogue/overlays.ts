/**
 * Overlays and their render layers, SPEC §3 "Overlay definition" and "Render layer": wind, gust,
 * temp, pressure, rain, clouds, and the layers real model data adds (dewpoint, rh, lclouds,
 * mclouds, hclouds, cape, the wave family with its particles (waves, wwaves, swell1-3), the
 * overlays straight from model fields (sst, deg0, snowcover, ptype, visibility, cbase, cloudtop,
 * gtco3), currents and currentsTide (listed, waiting for a source), and the air quality of
 * aerosol models: pm2p5, pm10, aod550).
 * Which GRIB fields fill each tile file is variables.ts.
 */

import { COLOR_SCALES, type ColorScale } from './colors.ts';
import { LEVELS } from './levels.ts';
import { METRICS, type Metric } from './metrics.ts';

/** SPEC §3 renderer kinds, plus `tiles`, the colour raster every weather layer draws with. */
export type RendererKind = 'tiles' | 'particles' | 'isolines' | 'accumulations' | 'daySwitcher' | 'capAlerts' | 'radar' | 'noUserControl' | 'topoMap';

export interface RenderLayer {
  ident: string;
  renderer: RendererKind;
  /** Data tile file name: tiles are `{file}-{level}.tile`. */
  file: string;
  /** Channels in the tile. Two channels with `vector` are u (east) and v (north) components. */
  channels: 1 | 2 | 3;
  vector?: boolean;
  levels: readonly string[];
  colorScale: ColorScale;
  metric: Metric;
  /** The layer is drawn only over the sea / only over land. */
  sea?: boolean;
  landOnly?: boolean;
}

export interface Overlay {
  ident: string;
  /** i18n key of the overlay's name. */
  trans: string;
  icon: string;
  /** Render layers, the first one is the colour layer whose value the picker and legend show. */
  layers: readonly string[];
  accumulation?: boolean;
  hideFromURL?: boolean;
  hideParticles?: boolean;
  globeNotSupported?: boolean;
  partOf?: string;
  promo?: boolean;
  moreLevels?: boolean;
  /**
   * No free source the ingest reads gives this overlay yet: the UI lists it disabled with this
   * note, and never draws invented values. `source` names what would fill it, `setting` how a
   * server would be told to fetch it once that source's ingest exists.
   */
  needsSource?: { source: string; setting: string };
}

const SURFACE = ['surface'] as const;
/** SPEC §3 Levels: the pressure levels. */
export const PRESSURE_LEVELS: readonly string[] = LEVELS.filter((l) => l.hPa !== undefined).map((l) => l.ident);
/** SPEC §3 Levels: 100m exists for wind only. */
const WIND_LEVELS: readonly string[] = ['surface', ...PRESSURE_LEVELS, '100m'];
const TEMP_LEVELS: readonly string[] = ['surface', ...PRESSURE_LEVELS];

const tiles = (ident: string, colorScale: ColorScale, metric: Metric, extra: Partial<RenderLayer> = {}): RenderLayer => ({
  ident, renderer: 'tiles', file: ident, channels: 1, levels: SURFACE, colorScale, metric, ...extra,
});

/**
 * The wave families' particles (SPEC §3): they follow `{family}Flow`, two channels of the
 * direction the waves travel to times their deep-water group velocity (m/s), which the particle
 * worker reads as it reads the wind's u and v, at the wind particles' speed scale.
 */
const waveParticles = (family: string): RenderLayer =>
  tiles(`${family}Particles`, COLOR_SCALES.waves, METRICS.wind, { renderer: 'particles', file: `${family}Flow`, channels: 2, vector: true, sea: true });

const WAVE_LAYERS: Record<string, RenderLayer> = {
  wavesParticles: waveParticles('waves'),
  wwaves: tiles('wwaves', COLOR_SCALES.swell, METRICS.waves, { sea: true }),
  wwavesParticles: waveParticles('wwaves'),
  ...Object.fromEntries([1, 2, 3].flatMap((n) => [
    [`swell${n}`, tiles(`swell${n}`, COLOR_SCALES.swell, METRICS.waves, { sea: true })],
    [`swell${n}Particles`, waveParticles(`swell${n}`)],
  ])),
};

/** Overlays straight from model fields (variables.ts MODEL_FIELD_RULES says what each model gives). */
const MODEL_FIELD_LAYERS: Record<string, RenderLayer> = {
  deg0: tiles('deg0', COLOR_SCALES.deg0, METRICS.altitude),
  gtco3: tiles('gtco3', COLOR_SCALES.gtco3, METRICS.ozone),
  snowcover: tiles('snowcover', COLOR_SCALES.snowcover, METRICS.snow),
  ptype: tiles('ptype', COLOR_SCALES.ptype, METRICS.ptype),
  cloudtop: tiles('cloudtop', COLOR_SCALES.cloudHeight, METRICS.cloudHeight),
  cbase: tiles('cbase', COLOR_SCALES.cloudHeight, METRICS.cloudHeight),
  visibility: tiles('visibility', COLOR_SCALES.visibility, METRICS.visibility),
  sst: tiles('sst', COLOR_SCALES.sst, METRICS.temp, { sea: true }),
};

/** Ocean currents: u and v of the surface current (m/s); no source fills them yet (Overlay.needsSource). */
const CURRENTS_LAYERS: Record<string, RenderLayer> = {
  currents: tiles('currents', COLOR_SCALES.currents, METRICS.current, { channels: 2, vector: true, sea: true }),
  currentsParticles: tiles('currentsParticles', COLOR_SCALES.currents, METRICS.current, { renderer: 'particles', file: 'currents', channels: 2, vector: true, sea: true }),
  currentsTide: tiles('currentsTide', COLOR_SCALES.currents, METRICS.current, { channels: 2, vector: true, sea: true }),
  currentsTideParticles: tiles('currentsTideParticles', COLOR_SCALES.currents, METRICS.current, { renderer: 'particles', file: 'currentsTide', channels: 2, vector: true, sea: true }),
};

export const RENDER_LAYERS: Readonly<Record<string, RenderLayer>> = {
  wind: tiles('wind', COLOR_SCALES.wind, METRICS.wind, { channels: 2, vector: true, levels: WIND_LEVELS }),
  windParticles: tiles('windParticles', COLOR_SCALES.wind, METRICS.wind, { renderer: 'particles', file: 'wind', channels: 2, vector: true, levels: WIND_LEVELS }),
  gust: tiles('gust', COLOR_SCALES.wind, METRICS.wind),
  temp: tiles('temp', COLOR_SCALES.temp, METRICS.temp, { levels: TEMP_LEVELS }),
  pressure: tiles('pressure', COLOR_SCALES.pressure, METRICS.pressure),
  rain: tiles('rain', COLOR_SCALES.rain, METRICS.rain),
  clouds: tiles('clouds', COLOR_SCALES.clouds, METRICS.clouds),
  dewpoint: tiles('dewpoint', COLOR_SCALES.dewpoint, METRICS.temp),
  rh: tiles('rh', COLOR_SCALES.rh, METRICS.humidity),
  lclouds: tiles('lclouds', COLOR_SCALES.clouds, METRICS.clouds),
  mclouds: tiles('mclouds', COLOR_SCALES.clouds, METRICS.clouds),
  hclouds: tiles('hclouds', COLOR_SCALES.clouds, METRICS.clouds),
  cape: tiles('cape', COLOR_SCALES.cape, METRICS.cape),
  waves: tiles('waves', COLOR_SCALES.waves, METRICS.waves, { sea: true }),
  ...WAVE_LAYERS,
  ...MODEL_FIELD_LAYERS,
  ...CURRENTS_LAYERS,
  pm2p5: tiles('pm2p5', COLOR_SCALES.pm2p5, METRICS.pm),
  pm10: tiles('pm10', COLOR_SCALES.pm10, METRICS.pm),
  aod550: tiles('aod550', COLOR_SCALES.aod550, METRICS.aod),
  /** Precipitation since the start of the run (mm); the rainAccu overlay's accumulations renderer reads it. */
  rainAccu: tiles('rainAccu', COLOR_SCALES.rainAccu, METRICS.precip, { renderer: 'accumulations' }),
  /** Geopotential height of the pressure levels: the `gh` isolines (SPEC §3 isolinesType). */
  gh: tiles('gh', COLOR_SCALES.gh, METRICS.altitude, { renderer: 'isolines', levels: PRESSURE_LEVELS }),
};

export const OVERLAYS: readonly Overlay[] = [
  { ident: 'wind', trans: 'overlay.wind', icon: 'wind', layers: ['wind', 'windParticles'], moreLevels: true },
  { ident: 'gust', trans: 'overlay.gust', icon: 'gust', layers: ['gust', 'windParticles'] },
  { ident: 'temp', trans: 'overlay.temp', icon: 'temp', layers: ['temp', 'windParticles'], moreLevels: true },
  { ident: 'pressure', trans: 'overlay.pressure', icon: 'pressure', layers: ['pressure', 'windParticles'] },
  { ident: 'rain', trans: 'overlay.rain', icon: 'rain', layers: ['rain', 'windParticles'] },
  { ident: 'clouds', trans: 'overlay.clouds', icon: 'clouds', layers: ['clouds', 'windParticles'] },
  { ident: 'dewpoint', trans: 'overlay.dewpoint', icon: 'temp', layers: ['dewpoint', 'windParticles'] },
  { ident: 'rh', trans: 'overlay.rh', icon: 'rh', layers: ['rh', 'windParticles'] },
  { ident: 'lclouds', trans: 'overlay.lclouds', icon: 'clouds', layers: ['lclouds', 'windParticles'], partOf: 'clouds' },
  { ident: 'mclouds', trans: 'overlay.mclouds', icon: 'clouds', layers: ['mclouds', 'windParticles'], partOf: 'clouds' },
  { ident: 'hclouds', trans: 'overlay.hclouds', icon: 'clouds', layers: ['hclouds', 'windParticles'], partOf: 'clouds' },
  { ident: 'cape', trans: 'overlay.cape', icon: 'cape', layers: ['cape', 'windParticles'] },
  { ident: 'waves', trans: 'overlay.waves', icon: 'waves', layers: ['waves', 'wavesParticles'] },
  { ident: 'wwaves', trans: 'overlay.wwaves', icon: 'waves', layers: ['wwaves', 'wwavesParticles'], partOf: 'waves' },
  { ident: 'swell1', trans: 'overlay.swell1', icon: 'waves', layers: ['swell1', 'swell1Particles'], partOf: 'waves' },
  { ident: 'swell2', trans: 'overlay.swell2', icon: 'waves', layers: ['swell2', 'swell2Particles'], partOf: 'waves' },
  { ident: 'swell3', trans: 'overlay.swell3', icon: 'waves', layers: ['swell3', 'swell3Particles'], partOf: 'waves' },
  {
    ident: 'currents', trans: 'overlay.currents', icon: 'waves', layers: ['currents', 'currentsParticles'],
    needsSource: { source: 'NOAA RTOFS Global (surface currents, GRIB2 / netCDF)', setting: 'ISOBAR_SOURCES=rtofs' },
  },
  {
    ident: 'currentsTide', trans: 'overlay.currentsTide', icon: 'waves', layers: ['currentsTide', 'currentsTideParticles'], partOf: 'currents',
    needsSource: { source: 'a global tide model with tidal currents (e.g. TPXO or FES)', setting: 'ISOBAR_SOURCES=tides' },
  },
  { ident: 'sst', trans: 'overlay.sst', icon: 'temp', layers: ['sst'] },
  { ident: 'deg0', trans: 'overlay.deg0', icon: 'temp', layers: ['deg0', 'windParticles'] },
  { ident: 'snowcover', trans: 'overlay.snowcover', icon: 'rain', layers: ['snowcover', 'windParticles'] },
  { ident: 'ptype', trans: 'overlay.ptype', icon: 'rain', layers: ['ptype', 'windParticles'], partOf: 'rain' },
  { ident: 'visibility', trans: 'overlay.visibility', icon: 'clouds', layers: ['visibility', 'windParticles'] },
  { ident: 'cbase', trans: 'overlay.cbase', icon: 'clouds', layers: ['cbase', 'windParticles'], partOf: 'clouds' },
  { ident: 'cloudtop', trans: 'overlay.cloudtop', icon: 'clouds', layers: ['cloudtop', 'windParticles'], partOf: 'clouds' },
  { ident: 'gtco3', trans: 'overlay.gtco3', icon: 'airq', layers: ['gtco3'] },
  // SPEC §3 overlay idents pm2p5 and aod550; PM10 is not among them, so it is offered as part of PM2.5's group.
  { ident: 'pm2p5', trans: 'overlay.pm2p5', icon: 'airq', layers: ['pm2p5'] },
  { ident: 'pm10', trans: 'overlay.pm10', icon: 'airq', layers: ['pm10'], partOf: 'pm2p5' },
  { ident: 'aod550', trans: 'overlay.aod550', icon: 'airq', layers: ['aod550'] },
];

export const OVERLAY_IDENTS: readonly string[] = OVERLAYS.map((o) => o.ident);
// SPEC §3 Settings: overlay default wind.
export const DEFAULT_OVERLAY = 'wind';

export function overlayByIdent(ident: string): Overlay | undefined {
  return OVERLAYS.find((o) => o.ident === ident);
}

/** The colour layer of an overlay: what the raster draws and the picker reads. */
export function colorLayerOf(overlay: Overlay): RenderLayer {
  return RENDER_LAYERS[overlay.layers[0]];
}

/** The particle layer of an overlay, if it shows particles. */
export function particleLayerOf(overlay: Overlay): RenderLayer | undefined {
  if (overlay.hideParticles) return undefined;
  const ident = overlay.layers.find((l) => RENDER_LAYERS[l]?.renderer === 'particles');
  return ident ? RENDER_LAYERS[ident] : undefined;
}
