/**
 * The radar overlay's state (SPEC §1 radar, §2 radar / radar-plus windows, §3 radarPlusSegmentRange):
 * the radar composite's manifests (common/api/radar.ts), the timeline of observed frames up to now
 * then the nowcast, the shown step, playback, and the segment of the radar-plus timeline. Active
 * only while a radar overlay shows; the manifest is read again on the radar interval (SPEC §9).
 */

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { isRadarOverlay } from '../../common/catalogue/overlays.ts';
import {
  RADAR_ARCHIVE_MINIFEST_PATH, RADAR_COVERAGE_ANSWER, RADAR_COVERAGE_PATH, RADAR_MINIFEST_ANSWER, RADAR_MINIFEST_PATH, type RadarCoverageAnswer, type RadarMinifestAnswer,
} from '../../common/api/radar.ts';
import type { LonLatShapes } from '../../workers/api.ts';
import { RADAR_SEGMENT_MS, RADAR_SEGMENTS, RADAR_UPDATE_MINUTES, radarSteps, type RadarSegment, type RadarSourceInfo, type RadarStep } from '../../common/radar.ts';
import { MINUTE_MS } from '../../common/time.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import { HttpError } from '../http/httpError.ts';
import { fetchObsSourceState, nothingShown, type NothingShown, type ObsSourceState } from '../http/obsSource.ts';
import { createFramePlayer } from './framePlayer.ts';
import type { LayerModel } from './layerModel.ts';
import type { SettingsStore } from './settingsStore.ts';
import { ANIMATION_MULTIPLIER, ANIMATION_STEP_MS } from './timelineModel.ts';

/** One radar frame a playback tick (SPEC §9: animation step 50 ms, multiplier 2). */
export const RADAR_FRAME_MS = ANIMATION_STEP_MS * ANIMATION_MULTIPLIER;

/** Reads a radar manifest; the model is given one (the app: fetchAnswer), so tests can hand it published ones. */
export type RadarLoader = (path: string, token: string | null) => Promise<RadarMinifestAnswer>;

export const fetchRadarManifest: RadarLoader = (path, token) => fetchAnswer(RADAR_MINIFEST_ANSWER, path, { token, cache: 'no-cache' });

export type CoverageLoader = () => Promise<RadarCoverageAnswer>;
export const fetchRadarCoverage: CoverageLoader = () => fetchAnswer(RADAR_COVERAGE_ANSWER, RADAR_COVERAGE_PATH, { cache: 'no-cache' });

/** Colour and width of the coverage outline: a thin light line, visible over the map and the echoes. */
const COVERAGE_RGBA = [1, 1, 1, 0.55] as const;
const COVERAGE_WIDTH_PX = 1.5;

/** The providers' coverage outlines (coverage.json) as lines for the worker's vector layer. */
export function coverageShapes(coverage: RadarCoverageAnswer): LonLatShapes {
  const lines = coverage.sources.flatMap((s) => s.rings.filter((r) => r.length > 1).map((ring) => ({
    points: ring.flatMap(([lon, lat]) => [lon, lat]),
    colors: ring.flatMap(() => [...COVERAGE_RGBA]),
    widthPx: COVERAGE_WIDTH_PX,
  })));
  return { lines, points: [], fills: [] };
}

/**
 * The steps of a segment: the observed frames of the live manifest (and of the archive, for
 * segments longer than its window) from `now` minus the segment's length, then the nowcast.
 */
export function radarTimeline(live: RadarMinifestAnswer | null, archive: RadarMinifestAnswer | null, segment: RadarSegment, now: number): RadarStep[] {
  if (!live) return [];
  const from = now - RADAR_SEGMENT_MS[segment];
  const frames = [...(archive?.frames ?? []), ...live.frames].filter((f) => f.time >= from);
  return radarSteps(frames, live.nowcast);
}

export interface RadarModel {
  /** A radar overlay shows. */
  readonly active: ReadonlySignal<boolean>;
  readonly segment: ReadonlySignal<RadarSegment>;
  readonly steps: ReadonlySignal<RadarStep[]>;
  readonly index: ReadonlySignal<number>;
  readonly step: ReadonlySignal<RadarStep | null>;
  readonly playing: ReadonlySignal<boolean>;
  /** The providers of the manifest, with their attribution. */
  readonly sources: ReadonlySignal<RadarSourceInfo[]>;
  readonly error: ReadonlySignal<string | null>;
  /**
   * Nothing published (the manifest answers 404): no radar source followed, or none has delivered
   * yet ('pending', 'unreachable' with the sources); null while frames or an error show.
   */
  readonly missing: ReadonlySignal<NothingShown<'noFrames'> | null>;
  /** The providers' coverage outlines (coverage.json), null until read. */
  readonly coverage: ReadonlySignal<RadarCoverageAnswer | null>;
  /** False for free users: the archive segment is Premium (SPEC §1). */
  readonly premium: ReadonlySignal<boolean>;
  setSegment(segment: RadarSegment): boolean;
  setIndex(index: number): void;
  play(): void;
  pause(): void;
  dispose(): void;
}

export function createRadarModel(options: {
  layer: LayerModel; settings: SettingsStore; load?: RadarLoader; loadCoverage?: CoverageLoader; now?: () => number;
  /** Why nothing is published: the observation status of the radar family. */
  followed?: () => Promise<ObsSourceState | null>;
}): RadarModel {
  const { layer, settings } = options;
  const followed = options.followed ?? (() => fetchObsSourceState('radar'));
  const missing = signal<NothingShown<'noFrames'> | null>(null);
  const load = options.load ?? fetchRadarManifest;
  const loadCoverage = options.loadCoverage ?? fetchRadarCoverage;
  const coverage = signal<RadarCoverageAnswer | null>(null);
  const now = options.now ?? Date.now;
  const live = signal<RadarMinifestAnswer | null>(null);
  const archive = signal<RadarMinifestAnswer | null>(null);
  const error = signal<string | null>(null);
  const index = signal(-1);
  const clock = signal(now());
  const active = computed(() => isRadarOverlay(layer.overlay.value));
  const premium = computed(() => settings.signal('subscription').value === 'premium');
  const token = computed(() => (premium.value ? settings.signal('userToken').value as string | null : null));
  // The radar overlay shows the last hours (short); radar-plus the segment of its setting.
  const segment = computed<RadarSegment>(() => (layer.overlay.value === 'radarPlus' ? settings.signal('radarPlusSegmentRange').value as RadarSegment : 'short'));
  const steps = computed(() => radarTimeline(live.value, archive.value, segment.value, clock.value));
  const step = computed(() => steps.value[index.value] ?? null);
  /** The newest observed step (the nowcast comes after it). */
  const latestObserved = (list: RadarStep[]) => {
    let i = list.length - 1;
    while (i > 0 && list[i].nowcast) i--;
    return i;
  };
  const read = async () => {
    try {
      const wantArchive = segment.peek() !== 'short';
      const [m, a, c] = await Promise.all([
        load(RADAR_MINIFEST_PATH, token.peek()),
        // No archive yet (every frame younger than the live window): the live frames alone.
        wantArchive ? load(RADAR_ARCHIVE_MINIFEST_PATH, token.peek()).catch((e: unknown) => {
          if (e instanceof HttpError && e.status === 404) return null;
          throw e;
        }) : null,
        // The outline is a nicety: without it the frames still show.
        loadCoverage().catch(() => null),
      ]);
      const shownTime = step.peek()?.time;
      batch(() => {
        clock.value = now();
        live.value = m;
        archive.value = a;
        if (c) coverage.value = c;
        error.value = null;
        missing.value = null;
        const list = steps.peek();
        const same = shownTime === undefined ? -1 : list.findIndex((s) => s.time === shownTime);
        // Keep the shown frame while it is still listed (and while playing); else show the newest observation.
        index.value = same >= 0 ? same : latestObserved(list);
      });
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) {
        // Nothing published yet: the status says whether a source is followed and how it fares.
        const state = await followed().catch(() => null);
        batch(() => {
          missing.value = nothingShown(state, 'noFrames');
          error.value = null;
        });
        return;
      }
      batch(() => {
        missing.value = null;
        error.value = (e as Error).message;
      });
    }
  };

  const player = createFramePlayer({
    active, index, count: () => steps.peek().length, read, refreshMs: RADAR_UPDATE_MINUTES * MINUTE_MS, frameMs: RADAR_FRAME_MS,
    watch: () => {
      void segment.value;
      void token.value;
    },
  });

  return {
    active, segment, steps, index, step, playing: player.playing, error, missing, premium, coverage,
    sources: computed(() => live.value?.sources ?? []),
    setSegment(next) {
      if (!RADAR_SEGMENTS.includes(next)) return false;
      // SPEC §1: the year's history is Premium; free users see the segment offered as Premium.
      if (next === 'archive' && !premium.peek()) return false;
      return settings.set('radarPlusSegmentRange', next as never);
    },
    setIndex: player.setIndex,
    play: player.play,
    pause: player.pause,
    dispose: player.dispose,
  };
}
