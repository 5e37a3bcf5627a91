/**
 * The tide stations over the map (SPEC §3 POI set "tide": setting pois, URL item p:tide): while on,
 * the served stations (GET /tides/v1.0/stations, common/api/tides.ts) are fetched once and drawn by
 * the worker; the picker names the nearest within reach of the click and opens its tides in the
 * detail window (Premium; the prompt for everyone else).
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { TIDE_STATIONS_ANSWER, TIDE_STATIONS_ROUTE, type TideStationsAnswer } from '../../common/api/tides.ts';
import { TIDE_POIS } from '../../common/tides.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import type { SettingsStore } from './settingsStore.ts';

export interface TideStationMark {
  id: string;
  name: string;
  lat: number;
  lon: number;
}

export interface TideLayerModel {
  readonly on: ReadonlySignal<boolean>;
  readonly stations: ReadonlySignal<TideStationsAnswer | null>;
  /** A load that failed (null after one that worked). */
  readonly error: ReadonlySignal<string | null>;
  setOn(on: boolean): void;
  load(): Promise<void>;
}

/** IUGG mean Earth radius R1, km. */
const EARTH_RADIUS_KM = 6371.0088;

/** The nearest station within maxKm of a place (haversine), or null. */
export function nearestTideStation(stations: TideStationsAnswer, lon: number, lat: number, maxKm: number): TideStationMark | null {
  const rad = Math.PI / 180;
  const cosLat = Math.cos(lat * rad);
  let best = -1;
  let bestH = Infinity;
  for (let i = 0; i < stations.ids.length; i++) {
    const dLat = (stations.lat[i] - lat) * rad;
    const dLon = (stations.lon[i] - lon) * rad;
    const h = Math.sin(dLat / 2) ** 2 + cosLat * Math.cos(stations.lat[i] * rad) * Math.sin(dLon / 2) ** 2;
    if (h < bestH) {
      bestH = h;
      best = i;
    }
  }
  if (best < 0 || 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(bestH))) > maxKm) return null;
  return { id: stations.ids[best], name: stations.names[best], lat: stations.lat[best], lon: stations.lon[best] };
}

export function createTideLayerModel(settings: SettingsStore, initialPois: string | undefined, fetchStations: () => Promise<TideStationsAnswer> = () => fetchAnswer(TIDE_STATIONS_ANSWER, TIDE_STATIONS_ROUTE)): TideLayerModel {
  if (initialPois === TIDE_POIS) settings.set('pois', TIDE_POIS);
  const on = computed(() => settings.signal('pois').value === TIDE_POIS);
  const stations = signal<TideStationsAnswer | null>(null);
  const error = signal<string | null>(null);
  return {
    on, stations, error,
    setOn(value) {
      settings.set('pois', value ? TIDE_POIS : '');
    },
    async load() {
      // The list changes only with the server's package: once is enough.
      if (stations.peek()) return;
      try {
        stations.value = await fetchStations();
        error.value = null;
      } catch (e) {
        error.value = String((e as Error).message ?? e);
      }
    },
  };
}
