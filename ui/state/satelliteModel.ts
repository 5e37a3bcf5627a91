/**
 * The satellite overlay's state (SPEC §1 satellite, §7 satellite hosts): info.json (the frames of
 * the live window) and, for Premium, archive/info.json; the timeline of steps (common/satellite.ts
 * satelliteSteps), the shown step, playback, and the range (live, or the archive's last day for
 * Premium). Active only while the satellite overlay shows; info.json is read again on the
 * satellite interval (SPEC §9). A server that follows no satellite source has no info.json (404):
 * the model says so (`unconfigured`) instead of drawing nothing silently.
 */

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { SATELLITE_ARCHIVE_INFO_PATH, SATELLITE_INFO_ANSWER, SATELLITE_INFO_PATH, type SatelliteInfoAnswer } from '../../common/api/satellite.ts';
import { SATELLITE_LIVE_WINDOW_MS, SATELLITE_UPDATE_MINUTES, satelliteSteps, type SatelliteSourceInfo, type SatelliteStep } from '../../common/satellite.ts';
import { DAY_MS, MINUTE_MS } from '../../common/time.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import { HttpError } from '../http/httpError.ts';
import { createFramePlayer } from './framePlayer.ts';
import type { LayerModel } from './layerModel.ts';
import { RADAR_FRAME_MS } from './radarModel.ts';
import type { SettingsStore } from './settingsStore.ts';

/** SPEC §1 (full-year satellite history for Premium): the archive range animates the last day of it. */
export const SATELLITE_RANGES = ['live', 'archive'] as const;
export type SatelliteRange = (typeof SATELLITE_RANGES)[number];
export const SATELLITE_RANGE_MS: Record<SatelliteRange, number> = { live: SATELLITE_LIVE_WINDOW_MS, archive: DAY_MS };

/** Reads a satellite info document; the model is given one (the app: fetchAnswer), so tests can hand it published ones. */
export type SatelliteLoader = (path: string, token: string | null) => Promise<SatelliteInfoAnswer>;
export const fetchSatelliteInfo: SatelliteLoader = (path, token) => fetchAnswer(SATELLITE_INFO_ANSWER, path, { token, cache: 'no-cache' });

/** The steps of a range: the live frames (and the archive's, for the archive range) from `now` minus the range's length. */
export function satelliteTimeline(live: SatelliteInfoAnswer | null, archive: SatelliteInfoAnswer | null, range: SatelliteRange, now: number): SatelliteStep[] {
  if (!live) return [];
  const from = now - SATELLITE_RANGE_MS[range];
  const frames = [...(range === 'archive' ? archive?.frames ?? [] : []), ...live.frames].filter((f) => f.time >= from);
  return satelliteSteps(frames);
}

export interface SatelliteModel {
  /** The satellite overlay shows. */
  readonly active: ReadonlySignal<boolean>;
  readonly range: ReadonlySignal<SatelliteRange>;
  readonly steps: ReadonlySignal<SatelliteStep[]>;
  readonly index: ReadonlySignal<number>;
  readonly step: ReadonlySignal<SatelliteStep | null>;
  readonly playing: ReadonlySignal<boolean>;
  /** The satellites of info.json, with their attribution and sub-satellite longitude. */
  readonly sources: ReadonlySignal<SatelliteSourceInfo[]>;
  readonly error: ReadonlySignal<string | null>;
  /** The server follows no satellite source (info.json answers 404). */
  readonly unconfigured: ReadonlySignal<boolean>;
  /** False for free users: the archive is Premium (SPEC §1). */
  readonly premium: ReadonlySignal<boolean>;
  setRange(range: SatelliteRange): boolean;
  setIndex(index: number): void;
  play(): void;
  pause(): void;
  dispose(): void;
}

export function createSatelliteModel(options: { layer: LayerModel; settings: SettingsStore; load?: SatelliteLoader; now?: () => number }): SatelliteModel {
  const { layer, settings } = options;
  const load = options.load ?? fetchSatelliteInfo;
  const now = options.now ?? Date.now;
  const live = signal<SatelliteInfoAnswer | null>(null);
  const archive = signal<SatelliteInfoAnswer | null>(null);
  const error = signal<string | null>(null);
  const unconfigured = signal(false);
  const index = signal(-1);
  const clock = signal(now());
  const chosenRange = signal<SatelliteRange>('live');
  const active = computed(() => layer.overlay.value === 'satellite');
  const premium = computed(() => settings.signal('subscription').value === 'premium');
  const token = computed(() => (premium.value ? settings.signal('userToken').value as string | null : null));
  // Free users see the live window only, whatever was chosen before (a lapsed subscription).
  const range = computed<SatelliteRange>(() => (premium.value ? chosenRange.value : 'live'));
  const steps = computed(() => satelliteTimeline(live.value, archive.value, range.value, clock.value));
  const step = computed(() => steps.value[index.value] ?? null);
  const read = async () => {
    try {
      const wantArchive = range.peek() === 'archive';
      const [info, old] = await Promise.all([
        load(SATELLITE_INFO_PATH, token.peek()),
        wantArchive ? load(SATELLITE_ARCHIVE_INFO_PATH, token.peek()) : null,
      ]);
      const shownTime = step.peek()?.time;
      batch(() => {
        clock.value = now();
        live.value = info;
        archive.value = old;
        error.value = null;
        unconfigured.value = false;
        const list = steps.peek();
        const same = shownTime === undefined ? -1 : list.findIndex((s) => s.time === shownTime);
        // Keep the shown frame while it is still listed (and while playing); else show the newest.
        index.value = same >= 0 ? same : list.length - 1;
      });
    } catch (e) {
      batch(() => {
        // No info.json: no satellite source is configured on this server (README "Observations").
        unconfigured.value = e instanceof HttpError && e.status === 404;
        error.value = unconfigured.peek() ? null : (e as Error).message;
      });
    }
  };

  const player = createFramePlayer({
    active, index, count: () => steps.peek().length, read, refreshMs: SATELLITE_UPDATE_MINUTES * MINUTE_MS, frameMs: RADAR_FRAME_MS,
    watch: () => {
      void range.value;
      void token.value;
    },
  });

  return {
    active, range, steps, index, step, playing: player.playing, error, unconfigured, premium,
    sources: computed(() => live.value?.sources ?? []),
    setRange(next) {
      if (!SATELLITE_RANGES.includes(next)) return false;
      // SPEC §1: the year's history is Premium; free users see the range offered as Premium.
      if (next === 'archive' && !premium.peek()) return false;
      chosenRange.value = next;
      return true;
    },
    setIndex: player.setIndex,
    play: player.play,
    pause: player.pause,
    dispose: player.dispose,
  };
}
