/**
 * Overlays and their render layers, SPEC §3 "Overlay definition" and "Render layer": wind, gust,
 * temp, pressure, rain, clouds, and the layers real model data adds (dewpoint, rh, lclouds,
 * mclouds, hclouds, cape, the wave family with its particles (waves, wwaves, swell1-3), the
 * overlays straight from model fields (sst, deg0, snowcover, ptype, visibility, cbase, cloudtop,
 * gtco3), the derived overlays, and the air quality of aerosol models: pm2p5, pm10, aod550). The
 * SPEC §3 overlays no source fills yet are UNSOURCED_OVERLAYS, not overlays the app can choose.
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
  /**
   * The channel whose value the picker reads and shows in the metric, where it is not the drawn
   * channel 0 (satellite: the image's brightness is drawn, the infrared temperature is picked).
   */
  pickChannel?: number;
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
  /** Derived overlays: the method and its published reference (server/ingest/derived). */
  method?: string;
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

/** Ocean currents: u and v of the surface current (m/s), ready for a source; none fills them yet (UNSOURCED_OVERLAYS). */
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
  rh: tiles('rh', COLOR_SCALES.rh, METRICS.humidity, { levels: TEMP_LEVELS }),
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
  // Accumulations (SPEC §3 accumulation flag): tiles asked with an acRange are the amount over the
  // range, made by the server from stored steps (accumulations.ts ACCUMULATION_SOURCES).
  /** Stored: precipitation since the start of the run (mm); asked with acRange: the amount over the range. */
  rainAccu: tiles('rainAccu', COLOR_SCALES.rainAccu, METRICS.precip, { renderer: 'accumulations' }),
  /** Stored: the snow on the ground as water equivalent (mm), which snowAccu is made from; no overlay shows it as it is. */
  snowWe: tiles('snowWe', COLOR_SCALES.rainAccu, METRICS.precip, { renderer: 'noUserControl' }),
  /** Asked with acRange only: new snow over the range (cm, from the gain of its water equivalent at 10:1). */
  snowAccu: tiles('snowAccu', COLOR_SCALES.snowAccu, METRICS.snow, { renderer: 'accumulations' }),
  /** Asked with acRange only: the largest gust of the range's steps (m/s). */
  gustAccu: tiles('gustAccu', COLOR_SCALES.wind, METRICS.wind, { renderer: 'accumulations' }),
  /** Geopotential height of the pressure levels: the `gh` isolines (SPEC §3 isolinesType). */
  gh: tiles('gh', COLOR_SCALES.gh, METRICS.altitude, { renderer: 'isolines', levels: PRESSURE_LEVELS }),
  // ---- Derived fields (server/ingest/derived) and air quality. ----
  wetbulbtemp: tiles('wetbulbtemp', COLOR_SCALES.wetbulbtemp, METRICS.temp),
  fog: tiles('fog', COLOR_SCALES.fog, METRICS.fog),
  thunder: tiles('thunder', COLOR_SCALES.thunder, METRICS.thunder),
  solarpower: tiles('solarpower', COLOR_SCALES.solarpower, METRICS.solarpower),
  ccl: tiles('ccl', COLOR_SCALES.ccl, METRICS.altitude),
  dfm10h: tiles('dfm10h', COLOR_SCALES.dfm10h, METRICS.fuelMoisture, { landOnly: true }),
  fwi: tiles('fwi', COLOR_SCALES.fwi, METRICS.fwi, { landOnly: true }),
  aqi: tiles('aqi', COLOR_SCALES.aqi, METRICS.aqi),
  dustsm: tiles('dustsm', COLOR_SCALES.dustsm, METRICS.pm),
  no2: tiles('no2', COLOR_SCALES.gas, METRICS.pm),
  go3: tiles('go3', COLOR_SCALES.gas, METRICS.pm),
  cosc: tiles('cosc', COLOR_SCALES.cosc, METRICS.pm),
  tcso2: tiles('tcso2', COLOR_SCALES.tcso2, METRICS.column),
  turbulence: tiles('turbulence', COLOR_SCALES.turbulence, METRICS.turbulence, { levels: PRESSURE_LEVELS }),
  icing: tiles('icing', COLOR_SCALES.icing, METRICS.humidity, { levels: PRESSURE_LEVELS }),
  // ---- Observations (SPEC §1 radar): drawn from the radar composite's frames, not a product's run. ----
  radar: tiles('radar', COLOR_SCALES.radar, METRICS.reflectivity, { renderer: 'radar' }),
  /**
   * SPEC §1 satellite: the satellite tile source (workers/tiles/satelliteTileSource.ts) gives two
   * channels: 0 the day/night composite brightness 0..1, drawn in grey; 1 the infrared brightness
   * temperature (K), which the picker shows.
   */
  satellite: tiles('satellite', COLOR_SCALES.satellite, METRICS.temp, { channels: 2, pickChannel: 1 }),
  /**
   * SPEC §3 renderer kind "cap alerts": the warning areas (server/obs/capAlerts), drawn by the
   * render worker's capAlerts layer from the published GeoJSON, not from tiles; its scale and
   * metric are the severity classes the legend names.
   */
  capAlerts: tiles('capAlerts', COLOR_SCALES.capAlerts, METRICS.capSeverity, { renderer: 'capAlerts' }),
  soilMoisture40: tiles('soilMoisture40', COLOR_SCALES.soilMoisture, METRICS.soilMoisture, { landOnly: true }),
  soilMoisture100: tiles('soilMoisture100', COLOR_SCALES.soilMoisture, METRICS.soilMoisture, { landOnly: true }),
};

export const OVERLAYS: readonly Overlay[] = [
  { ident: 'wind', trans: 'overlay.wind', icon: 'wind', layers: ['wind', 'windParticles'], moreLevels: true },
  { ident: 'gust', trans: 'overlay.gust', icon: 'gust', layers: ['gust', 'windParticles'] },
  { ident: 'temp', trans: 'overlay.temp', icon: 'temp', layers: ['temp', 'windParticles'], moreLevels: true },
  { ident: 'pressure', trans: 'overlay.pressure', icon: 'pressure', layers: ['pressure', 'windParticles'] },
  { ident: 'rain', trans: 'overlay.rain', icon: 'rain', layers: ['rain', 'windParticles'] },
  { ident: 'clouds', trans: 'overlay.clouds', icon: 'clouds', layers: ['clouds', 'windParticles'] },
  // Accumulations over the chosen range (SPEC §3 acRange): no particles over an amount.
  { ident: 'rainAccu', trans: 'overlay.rainAccu', icon: 'rain', layers: ['rainAccu'], accumulation: true, hideParticles: true },
  { ident: 'snowAccu', trans: 'overlay.snowAccu', icon: 'snow', layers: ['snowAccu'], accumulation: true, hideParticles: true },
  { ident: 'gustAccu', trans: 'overlay.gustAccu', icon: 'gust', layers: ['gustAccu'], accumulation: true, hideParticles: true },
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
  // ---- Derived fields (server/ingest/derived: method and reference in `method`) and air quality. ----
  { ident: 'wetbulbtemp', trans: 'overlay.wetbulbtemp', icon: 'temp', layers: ['wetbulbtemp', 'windParticles'], method: 'Stull (2011), J. Appl. Meteor. Climatol. 50, 2267-2269, from 2 m temperature and relative humidity' },
  { ident: 'solarpower', trans: 'overlay.solarpower', icon: 'clouds', layers: ['solarpower'], method: 'PVWatts v5 module model (Dobos 2014, NREL/TP-6A20-62641), NOCT cell temperature (Ross 1976), horizontal panel, from surface short-wave irradiance and 2 m temperature' },
  { ident: 'turbulence', trans: 'overlay.turbulence', icon: 'wind', layers: ['turbulence', 'windParticles'], moreLevels: true, method: 'Ellrod & Knapp (1992) TI1, Wea. Forecasting 7, 150-165, from pressure-level winds and heights' },
  { ident: 'icing', trans: 'overlay.icing', icon: 'clouds', layers: ['icing', 'windParticles'], moreLevels: true, method: 'Schultz & Politovich (1992), Wea. Forecasting 7, 491-500: 0 to -16 °C and RH >= 63 % on pressure levels' },
  { ident: 'fog', trans: 'overlay.fog', icon: 'clouds', layers: ['fog'], method: 'FSL visibility 6000 (T - Td) / RH^1.75 (Doran et al. 1999) below 1 km; rime below 0 °C' },
  { ident: 'thunder', trans: 'overlay.thunder', icon: 'rain', layers: ['thunder', 'windParticles'], method: 'CAPE x convective precipitation rate lightning proxy (Romps et al. 2014, Science 346, 851-854)' },
  { ident: 'ccl', trans: 'overlay.ccl', icon: 'clouds', layers: ['ccl'], method: 'Skew-T construction (AWS/TR-79/006; AMS Glossary): surface mixing ratio line against the pressure-level sounding' },
  { ident: 'fwi', trans: 'overlay.fwi', icon: 'temp', layers: ['fwi'], method: 'Canadian Fire Weather Index System (Van Wagner 1987), one day from the start-up values 85/6/15 per step' },
  { ident: 'dfm10h', trans: 'overlay.dfm10h', icon: 'rh', layers: ['dfm10h'], method: 'NFDRS 1978 10-hour fuel moisture 1.28 x Simard EMC (Cohen & Deeming 1985, PSW-82)' },
  { ident: 'aqi', trans: 'overlay.aqi', icon: 'airq', layers: ['aqi'], method: 'EEA European Air Quality Index bands (PM2.5, PM10, NO2, O3, SO2: those the run has)' },
  { ident: 'dustsm', trans: 'overlay.dustsm', icon: 'airq', layers: ['dustsm'], partOf: 'pm2p5' },
  { ident: 'no2', trans: 'overlay.no2', icon: 'airq', layers: ['no2'] },
  { ident: 'go3', trans: 'overlay.go3', icon: 'airq', layers: ['go3'] },
  { ident: 'cosc', trans: 'overlay.cosc', icon: 'airq', layers: ['cosc'] },
  { ident: 'tcso2', trans: 'overlay.tcso2', icon: 'airq', layers: ['tcso2'] },
  // Soil moisture from the land model's layers (variables.ts MODEL_FIELD_RULES, modelFields.ts).
  { ident: 'soilMoisture40', trans: 'overlay.soilMoisture40', icon: 'rh', layers: ['soilMoisture40'], method: 'NCEP SOILW (Noah land model) 0-10 and 10-40 cm, thickness-weighted: (0.1 m x layer 1 + 0.3 m x layer 2) / 0.4 m' },
  { ident: 'soilMoisture100', trans: 'overlay.soilMoisture100', icon: 'rh', layers: ['soilMoisture100'], partOf: 'soilMoisture40', method: 'NCEP SOILW (Noah land model) 40-100 cm layer' },
  // SPEC §1 radar and §2 radar-plus: observed composites (server/obs/radar), whatever the product.
  { ident: 'radar', trans: 'overlay.radar', icon: 'rain', layers: ['radar'], hideParticles: true },
  { ident: 'radarPlus', trans: 'overlay.radarPlus', icon: 'rain', layers: ['radar'], hideParticles: true, partOf: 'radar' },
  // SPEC §1 satellite: geostationary imagery (server/obs/satellite), whatever the product.
  { ident: 'satellite', trans: 'overlay.satellite', icon: 'clouds', layers: ['satellite'], hideParticles: true },
  // SPEC §3 capAlerts: the weather warnings' areas alone, no weather under them (server/obs/capAlerts).
  { ident: 'capAlerts', trans: 'overlay.capAlerts', icon: 'warning', layers: ['capAlerts'], hideParticles: true },
  // SPEC §3 hurricanes: the active storms (server/obs/tropical) drawn over the product's wind.
  { ident: 'hurricanes', trans: 'overlay.hurricanes', icon: 'hurricane', layers: ['wind', 'windParticles'] },
];

/**
 * Overlays drawn from observations and bulletins (SPEC §1: radar, satellite, warnings, storms), not
 * from a product's run: every product shows them, and choosing one keeps the product (its point
 * forecast and the picker's model stay). The hurricanes overlay draws its storms over the product's
 * wind where the product has wind.
 */
export const OBSERVATION_OVERLAYS: readonly string[] = ['radar', 'radarPlus', 'satellite', 'capAlerts', 'hurricanes'];

export function isObservationOverlay(ident: string): boolean {
  return OBSERVATION_OVERLAYS.includes(ident);
}

/** The radar overlays (drawn from the radar composite's frames). */
export function isRadarOverlay(ident: string): boolean {
  return ident === 'radar' || ident === 'radarPlus';
}

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

/**
 * SPEC §3 overlays no free source the ingest reads fills yet: the one list of them. They are not in
 * OVERLAYS (nothing can choose, store or draw them; never invented values): the overlay menu lists
 * them disabled with what would fill them and the setting that would enable it (issue 13 §2). An
 * overlay leaves this list for OVERLAYS when an ingest fills it.
 */
export interface UnsourcedOverlay {
  ident: string;
  /** i18n key of the overlay's name (core bundle). */
  trans: string;
  icon: string;
  /** What would fill it, and why what the ingest reads does not. */
  source: string;
  /** The setting that would enable it once its ingest exists; null where no free source exists. */
  setting: string | null;
}

export const UNSOURCED_OVERLAYS: readonly UnsourcedOverlay[] = [
  { ident: 'uvindex', trans: 'overlay.uvindex', icon: 'temp', setting: 'ISOBAR_CAMS_KEY', source: 'CAMS global uvbed (UV index = uvbed x 40); NCEP DUVB/CDUVB are UV-B, not erythemally weighted' },
  { ident: 'currents', trans: 'overlay.currents', icon: 'waves', setting: 'ISOBAR_SOURCES=rtofs', source: 'NOAA RTOFS Global (surface currents, GRIB2 / netCDF)' },
  { ident: 'currentsTide', trans: 'overlay.currentsTide', icon: 'waves', setting: 'ISOBAR_SOURCES=tides', source: 'a global tide model with tidal currents (e.g. TPXO or FES)' },
  { ident: 'moistureAnom40', trans: 'overlay.moistureAnom40', icon: 'rh', setting: null, source: 'a soil moisture climatology (e.g. ERA5-Land); no free source is configured' },
  { ident: 'moistureAnom100', trans: 'overlay.moistureAnom100', icon: 'rh', setting: null, source: 'a soil moisture climatology (e.g. ERA5-Land); no free source is configured' },
  { ident: 'drought40', trans: 'overlay.drought40', icon: 'temp', setting: null, source: 'a drought monitor product (levels 0-6); no free source is configured' },
  { ident: 'drought100', trans: 'overlay.drought100', icon: 'temp', setting: null, source: 'a drought monitor product (levels 0-6); no free source is configured' },
  { ident: 'efiWind', trans: 'overlay.efiWind', icon: 'wind', setting: null, source: 'the ECMWF Extreme Forecast Index (ENS), not in the open data' },
  { ident: 'efiTemp', trans: 'overlay.efiTemp', icon: 'temp', setting: null, source: 'the ECMWF Extreme Forecast Index (ENS), not in the open data' },
  { ident: 'efiRain', trans: 'overlay.efiRain', icon: 'rain', setting: null, source: 'the ECMWF Extreme Forecast Index (ENS), not in the open data' },
];
