/**
 * The render worker's own measurements, read by the /debug window, the end-to-end tests and the
 * benchmarks (api.ts RenderStats): frame and particle-step times over the last STATS_WINDOW frames,
 * frames in the last second, the last static redraw, first particles and start-up milestones.
 */

import { SECOND_MS } from '../common/time.ts';

/** Frames the time medians are taken over. */
export const STATS_WINDOW = 120;

/** The q-quantile (0.5 = median) of `values`; 0 for none. */
export function quantile(values: readonly number[], q = 0.5): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** A wall-clock time in ms (performance.timeOrigin + now()), comparable across the page and the worker. */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

export class FrameStats {
  frames = 0;
  /** ms of the last static-layer redraw (basemap, raster). */
  rasterMs = 0;
  firstParticlesAt: number | null = null;
  /** Start-up milestones by name, wall clock ms: where the first second goes. */
  readonly milestones: Record<string, number> = {};
  private readonly frameTimes: number[] = [];
  private readonly stepTimes: number[] = [];
  private readonly frameStamps: number[] = [];

  /** Records a milestone once: the first time it is reached. */
  milestone(name: string, at = wallClock()): void {
    this.milestones[name] ??= at;
  }

  /** A frame that started at `started` (performance.now()) and took `ms`. */
  frame(started: number, ms: number): void {
    this.frames++;
    push(this.frameTimes, ms);
    this.frameStamps.push(started);
    while (this.frameStamps.length && started - this.frameStamps[0] > SECOND_MS) this.frameStamps.shift();
  }

  step(ms: number): void {
    push(this.stepTimes, ms);
  }

  /** Step times of another kernel do not mix with this one's. */
  resetSteps(): void {
    this.stepTimes.length = 0;
  }

  /** True the first time: the caller announces first particles. */
  particlesDrawn(at = wallClock()): boolean {
    if (this.firstParticlesAt !== null) return false;
    this.firstParticlesAt = at;
    return true;
  }

  summary(now: number): { fps: number; frameMsP50: number; frameMsP95: number; stepMsP50: number; rasterMs: number; frames: number; firstParticlesAt: number | null; milestones: Record<string, number> } {
    return {
      fps: this.frameStamps.filter((t) => now - t <= SECOND_MS).length,
      frameMsP50: quantile(this.frameTimes),
      frameMsP95: quantile(this.frameTimes, 0.95),
      stepMsP50: quantile(this.stepTimes),
      rasterMs: this.rasterMs,
      frames: this.frames,
      firstParticlesAt: this.firstParticlesAt,
      milestones: { ...this.milestones },
    };
  }
}

function push(window: number[], value: number): void {
  window.push(value);
  if (window.length > STATS_WINDOW) window.shift();
}
