/** Composes the app's signal models in one place (STYLE.md: one model per concern, dependencies passed in). */

import { parseSearch, type UrlState } from '../../common/url.ts';
import { DEFAULT_PRODUCT } from '../../common/catalogue/products.ts';
import { createAccumulationModel, type AccumulationModel } from './accumulationModel.ts';
import { createDataModel, type DataModel } from './dataModel.ts';
import { createIsolinesModel, type IsolinesModel } from './isolinesModel.ts';
import { createLayerModel, type LayerModel } from './layerModel.ts';
import { createObsLayersModel, type ObsLayersModel } from './obsLayersModel.ts';
import { createTideLayerModel, type TideLayerModel } from './tideLayerModel.ts';
import { createMapModel, type MapModel } from './mapModel.ts';
import { createPickerModel, pickerFromUrl, type PickerModel } from './pickerModel.ts';
import { createPointMarks, type PointMarks } from './pointMark.ts';
import { createTimelineModel, type TimelineModel } from './timelineModel.ts';
import { countryOf, createUnitsModel, type UnitsModel } from './unitsModel.ts';
import { createPanelModel, type PanelDef, type PanelModel } from '../panels/panelModel.ts';
import type { PanelComponent } from '../panels/registry.ts';
import { createRadarModel, type RadarModel } from './radarModel.ts';
import { createSatelliteModel, type SatelliteModel } from './satelliteModel.ts';
import { createRouter, type Router } from './router.ts';
import { createSettingsStore, type SettingsStore } from './settingsStore.ts';
import { createUsageLog, type UsageLog } from './usage.ts';

export interface AppState {
  map: MapModel;
  layer: LayerModel;
  timeline: TimelineModel;
  /** SPEC §3 acRange and §4 Accumulation: the range an accumulation overlay shows. */
  accumulation: AccumulationModel;
  /** SPEC §3 isolinesOn / isolinesType. */
  isolines: IsolinesModel;
  units: UnitsModel;
  /** Lightning (setting blitzOn) and the firespots POI layer over the map (issue 15 §3, §6). */
  obs: ObsLayersModel;
  /** The tide stations POI layer (SPEC §3 pois "tide"). */
  tides: TideLayerModel;
  picker: PickerModel;
  /** The place a point window (forecast, sounding, model comparison) is open for: marked on the map. */
  pointMarks: PointMarks;
  data: DataModel;
  /** SPEC §1 radar: the radar overlays' frames, timeline and playback. */
  radar: RadarModel;
  /** SPEC §1 satellite: the satellite overlay's frames, timeline and playback. */
  satellite: SatelliteModel;
  settings: SettingsStore;
  panels: PanelModel<PanelComponent>;
  router: Router;
  usage: UsageLog;
  /** Phone-sized screen (SPEC: mobile interface). */
  mobile(): boolean;
  /** What the URL asked for at start-up. */
  initialUrl: UrlState;
  /** The URL's key=value pairs other than utm_ ones, kept when the URL is rewritten. */
  urlParams: [string, string][];
  dispose(): void;
}

/** Where the map opens without a position in the URL. */
const DEFAULT_CENTER = { lat: 30, lon: 10, zoom: 3 };

/** Phones get the mobile interface (SPEC §1 device kinds); tablets and desktops the desktop one. */
const MOBILE_MAX_WIDTH = 640;

/**
 * The app's models for the address the page opened with and the browser's language. The panel
 * registry (ui/panels/panels.ts) is passed in, so that the models import no window's code.
 */
export function createAppState(search: string, languageTag: string, registry: Readonly<Record<string, PanelDef<PanelComponent>>>): AppState {
  const { state: initialUrl, params: urlParams } = parseSearch(search);
  const map = createMapModel({
    lat: initialUrl.lat ?? DEFAULT_CENTER.lat,
    lon: initialUrl.lon ?? DEFAULT_CENTER.lon,
    zoom: initialUrl.zoom ?? DEFAULT_CENTER.zoom,
  });
  const layer = createLayerModel({ overlay: initialUrl.overlay, product: initialUrl.product ?? DEFAULT_PRODUCT, level: initialUrl.level });
  const timeline = createTimelineModel();
  if (initialUrl.date !== undefined) timeline.setTimestamp(initialUrl.date);
  const settings = createSettingsStore();
  const units = createUnitsModel(countryOf(languageTag), settings);
  const accumulation = createAccumulationModel(layer, timeline, settings);
  const isolines = createIsolinesModel(layer, settings, initialUrl.isolines);
  const obs = createObsLayersModel(settings, initialUrl.pois);
  const tides = createTideLayerModel(settings, initialUrl.pois);
  // p:cams turns the webcams layer on (ui/map/webcamsLayer.ts draws it).
  if (initialUrl.pois === 'cams') settings.set('pois', 'cams');
  const picker = createPickerModel(pickerFromUrl(initialUrl, { lat: map.lat.peek(), lon: map.lon.peek() }));
  const data = createDataModel(layer, timeline);
  const radar = createRadarModel({ layer, settings });
  const satellite = createSatelliteModel({ layer, settings });
  const usage = createUsageLog();
  const mobile = () => typeof window !== 'undefined' && window.innerWidth <= MOBILE_MAX_WIDTH;
  const panels = createPanelModel<PanelComponent>({ registry, mobile });
  const router = createRouter({ panels, map, layer, usage, mobile, lang: () => router.initial.lang });
  return {
    map, layer, timeline, accumulation, isolines, units, obs, tides, picker, pointMarks: createPointMarks(), data, radar, satellite, settings, panels, router, usage, mobile, initialUrl, urlParams,
    dispose() {
      router.dispose();
      accumulation.dispose();
      timeline.dispose();
      data.dispose();
      radar.dispose();
      satellite.dispose();
    },
  };
}
