/**
 * Keeps the render worker following the signals: the camera once per animation frame however often
 * it changes, the layer and the calendar, the shown time. Started with the page, before the map
 * view mounts, so the first tiles are on their way while React renders and WebGL starts.
 */

import { effect } from '@preact/signals-core';
import { transfer } from 'comlink';
import type { ParticleSettings } from '../../common/settings.ts';
import { isolineMetric } from '../../common/isolines.ts';
import { drawsProductRun } from '../../common/catalogue/layerRules.ts';
import type { AppState } from '../state/appState.ts';
import { coverageShapes } from '../state/radarModel.ts';
import { renderClient } from './renderClient.ts';
import { basemapSources, loadBasemapSources } from './basemapSources.ts';
import { MAP_SETTING_STYLES, type OfflineBasemapStyle } from '../../common/basemapStyles.ts';
import { startWebcamsLayer } from './webcamsLayer.ts';
import { startStormsLayer } from './stormsLayer.ts';
import { whileOn } from './whileOn.ts';
import { FIRES_REFRESH_MS, LIGHTNING_REFRESH_MS, METARS_REFRESH_MS } from '../state/obsLayersModel.ts';


export function startRenderSync(app: AppState): () => void {
  const api = renderClient.api();
  void loadBasemapSources();
  let frame = 0;
  const disposers = [
    effect(() => {
      void app.map.view.value;
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          void api.setView(app.map.view.peek());
        });
      }
    }),
    effect(() => {
      // SPEC §1 radar: the radar overlays draw the composite's frames, not the product's run.
      if (!app.radar.active.value) return;
      const steps = app.radar.steps.value;
      // The steps go to the worker when they change; playback only moves the time (below).
      // No frames (none yet, or no radar source): the worker shows no weather layer.
      const step = app.radar.step.peek() ?? steps[steps.length - 1];
      const subscriber = app.settings.signal('subscription').value === 'premium';
      void api.setRadar({
        overlay: app.layer.overlay.value,
        steps,
        time: step?.time ?? 0,
        premium: subscriber,
        token: subscriber ? app.settings.signal('userToken').value as string | null : null,
      });
    }),
    effect(() => {
      // SPEC §1 satellite: the satellite overlay draws its frames, not the product's run.
      if (!app.satellite.active.value) return;
      const steps = app.satellite.steps.value;
      // No frames (none yet, or no satellite source): the worker shows no weather layer.
      const step = app.satellite.step.peek() ?? steps[steps.length - 1];
      const subscriber = app.settings.signal('subscription').value === 'premium';
      void api.setSatellite({
        steps,
        lon0: Object.fromEntries(app.satellite.sources.value.map((s) => [s.id, s.lon0])),
        time: step?.time ?? 0,
        premium: subscriber,
        token: subscriber ? app.settings.signal('userToken').value as string | null : null,
      });
    }),
    effect(() => {
      // SPEC §1: the radar providers' coverage outline (coverage.json) while a radar overlay shows.
      const coverage = app.radar.active.value ? app.radar.coverage.value : null;
      void api.setShapes({ name: 'radarCoverage', shapes: coverage ? coverageShapes(coverage) : null });
    }),
    effect(() => {
      if (app.radar.active.value || app.satellite.active.value) return;
      if (!drawsProductRun(app.layer.overlayDef.value, app.layer.productDef.value)) {
        // The warnings alone, or storms over a product without wind: no weather layer under them.
        void api.clearLayer();
        return;
      }
      const calendar = app.timeline.calendar.value;
      const product = app.layer.product.value;
      // Until the new product's calendar is in, the map keeps showing the previous layer.
      if (!calendar || app.data.calendarProduct.value !== product) return;
      const subscriber = app.settings.signal('subscription').value === 'premium';
      void api.setLayer({
        product,
        overlay: app.layer.overlay.value,
        level: app.layer.level.value,
        refTime: calendar.refTime,
        timestamps: calendar.timestamps,
        layers: calendar.layers,
        time: app.timeline.timestamp.peek(),
        // SPEC §3 acRange, fitted to the calendar (SPEC §4): the accumulation tiles' range.
        acRange: app.accumulation.range.value ?? undefined,
        // SPEC §6: a subscriber's map asks for the finer Premium tiles, with the token the server checks.
        premium: subscriber,
        token: subscriber ? app.settings.signal('userToken').value as string | null : null,
      });
    }),
    effect(() => {
      // The observation overlays show their own step's time; a forecast the timeline's.
      const observed = app.radar.active.value ? app.radar : app.satellite.active.value ? app.satellite : null;
      const obsTime = observed ? observed.step.value?.time : undefined;
      if (observed && obsTime === undefined) return;
      void api.setTime({ time: obsTime ?? app.timeline.timestamp.value });
    }),
    effect(() => {
      // SPEC §3 particles and particlesAnim (settings panel).
      const particles = app.settings.get('particles') as ParticleSettings;
      const anim = app.settings.get('particlesAnim') as 'on' | 'off' | 'intensive';
      void api.setParticles({ ...particles, anim });
    }),
    effect(() => {
      // SPEC §3 isolinesType / isolinesOn, in the user's unit of their metric (SPEC §9).
      const type = app.isolines.shown.value;
      void api.setIsolines(type ? { type, unit: app.units.unitOf(isolineMetric(type).ident) } : null);
    }),
    effect(() => {
      // SPEC §2 base maps: the offline map's colours, the tile map of the map setting, the topoMap overlay.
      void api.setBasemap({
        graticule: app.settings.get('graticule') as boolean,
        style: app.settings.get('basemapStyle') as OfflineBasemapStyle,
        tiles: {
          map: MAP_SETTING_STYLES[app.settings.get('map') as keyof typeof MAP_SETTING_STYLES],
          topoMap: app.layer.overlay.value === 'topoMap',
          sources: basemapSources.value,
          lang: app.settings.get('usedLang') as string,
        },
      });
    }),
    // Lightning (blitzOn) and firespots (pois): fetched while on, drawn by the worker.
    whileOn(() => app.obs.lightningOn.value, () => app.obs.loadLightning(), LIGHTNING_REFRESH_MS),
    whileOn(() => app.obs.firesOn.value, () => app.obs.loadFires(), FIRES_REFRESH_MS),
    // Tide stations (pois "tide"): the list is loaded once, drawn while on.
    effect(() => {
      if (app.tides.on.value) void app.tides.load();
    }),
    effect(() => {
      const stations = app.tides.on.value ? app.tides.stations.value : null;
      if (!stations) {
        void api.setTideStations(null);
        return;
      }
      const lon = Float32Array.from(stations.lon);
      const lat = Float32Array.from(stations.lat);
      void api.setTideStations(transfer({ lon, lat }, [lon.buffer, lat.buffer]));
    }),
    // Webcams (pois 'cams'): near the map's centre, drawn by the worker.
    startWebcamsLayer(app, api),
    startStormsLayer(app, api),
    whileOn(() => app.obs.metarsOn.value, () => app.obs.loadMetars(), METARS_REFRESH_MS),
    effect(() => {
      const data = app.obs.lightningOn.value ? app.obs.lightning.value : null;
      // The model keeps its bytes for the picker: the worker gets a copy, transferred.
      const copy = data ? data.bytes.slice(0) : null;
      void (copy ? api.setLightning(transfer({ flashes: copy }, [copy])) : api.setLightning(null));
    }),
    effect(() => {
      const data = app.obs.firesOn.value ? app.obs.fires.value : null;
      if (!data) {
        void api.setFirespots(null);
        return;
      }
      const lon = Float32Array.from(data.spots, (s) => s.lon);
      const lat = Float32Array.from(data.spots, (s) => s.lat);
      const frpMw = Float32Array.from(data.spots, (s) => s.frpMw ?? Number.NaN);
      void api.setFirespots(transfer({ lon, lat, frpMw }, [lon.buffer, lat.buffer, frpMw.buffer]));
    }),
    effect(() => {
      const doc = app.obs.metarsOn.value ? app.obs.metars.value : null;
      if (!doc) {
        void api.setMetars(null);
        return;
      }
      const lon = Float32Array.from(doc.lon);
      const lat = Float32Array.from(doc.lat);
      const category = Int8Array.from(doc.category);
      void api.setMetars(transfer({ lon, lat, category }, [lon.buffer, lat.buffer, category.buffer]));
    }),
  ];
  return () => {
    disposers.forEach((d) => d());
    if (frame) cancelAnimationFrame(frame);
  };
}
