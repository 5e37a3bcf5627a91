/**
 * Lightning and fires over the map (issue 15 §3, §6). Lightning is the SPEC §3 setting blitzOn: marks
 * of the last hour's flashes over whatever overlay shows (SPEC §1 lists lightning among the map
 * layers; it belongs over radar and satellite as over a forecast, so it is a toggle, not an overlay
 * of its own). Fires are the SPEC §3 POI set "firespots" (setting pois, URL item p:firespots).
 * Each, while on, is fetched from the observation files (/obs/v1.0/{kind}/..., server/obs) and again
 * every so often; the worker draws them and the picker names the nearest.
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { obsFilePath } from '../../common/api/obs.ts';
import { decodeFlashes, isFlashesManifest, LIGHTNING_SOURCE_IDS, nearestFlash, type Flashes, type FlashesManifest } from '../../common/obs/flashes.ts';
import { METAR_STATIONS_DOCUMENT, METARS_STATIONS_PATH, type MetarStationsDocument } from '../../common/api/airports.ts';
import { checkAnswer } from '../../common/api/schema.ts';
import { FIRE_SOURCE_IDS, firespotsFromGeoJson, type FireSpot } from '../../common/obs/fires.ts';
import { MINUTE_MS } from '../../common/time.ts';
import type { SettingsStore } from './settingsStore.ts';

/** How often the map fetches again while a layer is on (the sources poll every 1 and 60 min). */
export const LIGHTNING_REFRESH_MS = MINUTE_MS;
export const FIRES_REFRESH_MS = 10 * MINUTE_MS;
/** The METAR source publishes every 10 minutes (server/obs/metar/metarSource.ts). */
export const METARS_REFRESH_MS = 5 * MINUTE_MS;
/** The picker names a flash or a fire within this many CSS px of the click. */
export const PICK_RADIUS_PX = 24;

export interface LightningData {
  manifest: FlashesManifest;
  flashes: Flashes;
  /** The flash file's bytes, for the worker (a copy is transferred). */
  bytes: ArrayBuffer;
}

export interface FiresData {
  source: string;
  label: string;
  attribution: string;
  /** ms since the epoch. */
  updated: number;
  spots: FireSpot[];
}

export interface ObsLayersModel {
  readonly lightningOn: ReadonlySignal<boolean>;
  readonly firesOn: ReadonlySignal<boolean>;
  readonly lightning: ReadonlySignal<LightningData | null>;
  readonly fires: ReadonlySignal<FiresData | null>;
  /** A load that failed (null after one that worked): shown beside the toggle. */
  readonly lightningError: ReadonlySignal<string | null>;
  readonly firesError: ReadonlySignal<string | null>;
  setLightningOn(on: boolean): void;
  setFiresOn(on: boolean): void;
  loadLightning(): Promise<void>;
  loadFires(): Promise<void>;
  /** The METAR stations (SPEC §3 pois "metars", URL item p:metars), coloured by flight category. */
  readonly metarsOn: ReadonlySignal<boolean>;
  readonly metars: ReadonlySignal<MetarStationsDocument | null>;
  readonly metarsError: ReadonlySignal<string | null>;
  setMetarsOn(on: boolean): void;
  loadMetars(): Promise<void>;
}

/** The nearest METAR station within maxKm (haversine, as nearestFire), or -1. */
export function nearestMetarStation(doc: MetarStationsDocument, lon: number, lat: number, maxKm: number): number {
  if (doc.icao.length === 0) return -1;
  const n = doc.icao.length;
  const empty = new Float32Array(n);
  return nearestFlash({ baseTime: 0, lon: Float32Array.from(doc.lon), lat: Float32Array.from(doc.lat), ageSeconds: empty, energyFj: empty, areaKm2: empty, quality: new Uint8Array(n) }, lon, lat, maxKm);
}

/** Kilometres a CSS pixel spans at latitude `lat` and zoom `zoom` (256 px world at zoom 0, equator 40 075 km). */
export function kmPerPixel(lat: number, zoom: number): number {
  return (40075.017 * Math.cos((lat * Math.PI) / 180)) / (256 * 2 ** zoom);
}

/** The nearest fire within maxKm (haversine, mean Earth radius), or null. */
export function nearestFire(spots: readonly FireSpot[], lon: number, lat: number, maxKm: number): FireSpot | null {
  if (spots.length === 0) return null;
  const lonArray = Float32Array.from(spots, (s) => s.lon);
  const latArray = Float32Array.from(spots, (s) => s.lat);
  const empty = new Float32Array(spots.length);
  const i = nearestFlash({ baseTime: 0, lon: lonArray, lat: latArray, ageSeconds: empty, energyFj: empty, areaKm2: empty, quality: new Uint8Array(spots.length) }, lon, lat, maxKm);
  return i < 0 ? null : spots[i];
}

export function createObsLayersModel(settings: SettingsStore, initialPois: string | undefined, fetchFn: typeof fetch = (...a) => fetch(...a)): ObsLayersModel {
  if (initialPois === 'firespots' || initialPois === 'metars') settings.set('pois', initialPois);
  const metarsOn = computed(() => settings.signal('pois').value === 'metars');
  const metars = signal<MetarStationsDocument | null>(null);
  const metarsError = signal<string | null>(null);
  const lightningOn = computed(() => settings.signal('blitzOn').value === true);
  const firesOn = computed(() => settings.signal('pois').value === 'firespots');
  const lightning = signal<LightningData | null>(null);
  const fires = signal<FiresData | null>(null);
  const lightningError = signal<string | null>(null);
  const firesError = signal<string | null>(null);

  async function firstFound<T>(paths: string[], read: (response: Response) => Promise<T>): Promise<T | null> {
    for (const path of paths) {
      const response = await fetchFn(path, { cache: 'no-cache' });
      if (response.status === 404) continue;
      if (!response.ok) throw new Error(`${response.status} for ${path}`);
      return read(response);
    }
    return null;
  }

  return {
    lightningOn, firesOn, lightning, fires, lightningError, firesError, metarsOn, metars, metarsError,
    setMetarsOn(on) {
      settings.set('pois', on ? 'metars' : '');
    },
    async loadMetars() {
      try {
        const doc = await firstFound([METARS_STATIONS_PATH], async (r) => checkAnswer(METAR_STATIONS_DOCUMENT, await r.json(), 'metars'));
        metars.value = doc;
        metarsError.value = doc ? null : 'none';
      } catch (error) {
        metarsError.value = String((error as Error).message ?? error);
      }
    },
    setLightningOn(on) {
      settings.set('blitzOn', on);
    },
    setFiresOn(on) {
      settings.set('pois', on ? 'firespots' : '');
    },
    async loadLightning() {
      try {
        const manifest = await firstFound(LIGHTNING_SOURCE_IDS.map((id) => obsFilePath('lightning', `${id}.json`)), async (r) => {
          const value: unknown = await r.json();
          if (!isFlashesManifest(value)) throw new Error('lightning manifest unreadable');
          return value;
        });
        if (!manifest) {
          lightning.value = null;
          lightningError.value = 'none';
          return;
        }
        if (lightning.peek()?.manifest.file === manifest.file) return;
        const response = await fetchFn(obsFilePath('lightning', manifest.file));
        if (!response.ok) throw new Error(`${response.status} for ${manifest.file}`);
        const bytes = await response.arrayBuffer();
        lightning.value = { manifest, flashes: decodeFlashes(bytes), bytes };
        lightningError.value = null;
      } catch (error) {
        lightningError.value = String((error as Error).message ?? error);
      }
    },
    async loadFires() {
      try {
        const doc = await firstFound(FIRE_SOURCE_IDS.map((id) => obsFilePath('fires', `${id}.geojson`)), async (r) => {
          const value = await r.json() as Record<string, unknown>;
          return {
            source: String(value.source ?? ''), label: String(value.label ?? ''), attribution: String(value.attribution ?? ''),
            updated: Date.parse(String(value.updated)), spots: firespotsFromGeoJson(value),
          } satisfies FiresData;
        });
        fires.value = doc;
        firesError.value = doc ? null : 'none';
      } catch (error) {
        firesError.value = String((error as Error).message ?? error);
      }
    },
  };
}
