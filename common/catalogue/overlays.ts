/**
 * Overlays and their render layers, SPEC §3 "Overlay definition" and "Render layer". This is the
 * first slice of the catalogue: wind, gust, temp, pressure, rain, clouds.
 */

import { COLOR_SCALES, type ColorScale } from './colors.ts';
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
}

const SURFACE = ['surface'] as const;

export const RENDER_LAYERS: Readonly<Record<string, RenderLayer>> = {
  wind: { ident: 'wind', renderer: 'tiles', file: 'wind', channels: 2, vector: true, levels: SURFACE, colorScale: COLOR_SCALES.wind, metric: METRICS.wind },
  windParticles: { ident: 'windParticles', renderer: 'particles', file: 'wind', channels: 2, vector: true, levels: SURFACE, colorScale: COLOR_SCALES.wind, metric: METRICS.wind },
  gust: { ident: 'gust', renderer: 'tiles', file: 'gust', channels: 1, levels: SURFACE, colorScale: COLOR_SCALES.wind, metric: METRICS.wind },
  temp: { ident: 'temp', renderer: 'tiles', file: 'temp', channels: 1, levels: SURFACE, colorScale: COLOR_SCALES.temp, metric: METRICS.temp },
  pressure: { ident: 'pressure', renderer: 'tiles', file: 'pressure', channels: 1, levels: SURFACE, colorScale: COLOR_SCALES.pressure, metric: METRICS.pressure },
  rain: { ident: 'rain', renderer: 'tiles', file: 'rain', channels: 1, levels: SURFACE, colorScale: COLOR_SCALES.rain, metric: METRICS.rain },
  clouds: { ident: 'clouds', renderer: 'tiles', file: 'clouds', channels: 1, levels: SURFACE, colorScale: COLOR_SCALES.clouds, metric: METRICS.clouds },
};

export const OVERLAYS: readonly Overlay[] = [
  { ident: 'wind', trans: 'overlay.wind', icon: 'wind', layers: ['wind', 'windParticles'], moreLevels: true },
  { ident: 'gust', trans: 'overlay.gust', icon: 'gust', layers: ['gust', 'windParticles'] },
  { ident: 'temp', trans: 'overlay.temp', icon: 'temp', layers: ['temp', 'windParticles'], moreLevels: true },
  { ident: 'pressure', trans: 'overlay.pressure', icon: 'pressure', layers: ['pressure', 'windParticles'] },
  { ident: 'rain', trans: 'overlay.rain', icon: 'rain', layers: ['rain', 'windParticles'] },
  { ident: 'clouds', trans: 'overlay.clouds', icon: 'clouds', layers: ['clouds', 'windParticles'] },
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
