import { describe, expect, it } from 'vitest';
import { FrameStats, quantile, STATS_WINDOW } from './frameStats.ts';

describe('frame statistics', () => {
  it('takes quantiles of the values', () => {
    expect(quantile([])).toBe(0);
    expect(quantile([5, 1, 3])).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
  });

  it('counts the frames of the last second and keeps the last STATS_WINDOW frame times', () => {
    const stats = new FrameStats();
    for (let i = 0; i < STATS_WINDOW + 30; i++) stats.frame(i * 20, i < 30 ? 100 : 10);
    const now = (STATS_WINDOW + 29) * 20;
    const summary = stats.summary(now);
    expect(summary.frames).toBe(STATS_WINDOW + 30);
    // 20 ms apart: 51 frames started in the last 1000 ms (both ends included).
    expect(summary.fps).toBe(51);
    // The 100 ms frames fell out of the window.
    expect(summary.frameMsP50).toBe(10);
    expect(summary.frameMsP95).toBe(10);
  });

  it('keeps the first time of a milestone and of first particles', () => {
    const stats = new FrameStats();
    stats.milestone('gl', 5);
    stats.milestone('gl', 9);
    expect(stats.particlesDrawn(7)).toBe(true);
    expect(stats.particlesDrawn(8)).toBe(false);
    expect(stats.summary(10)).toMatchObject({ milestones: { gl: 5 }, firstParticlesAt: 7 });
  });

  it('forgets step times when the kernel changes', () => {
    const stats = new FrameStats();
    stats.step(4);
    stats.resetSteps();
    stats.step(1);
    expect(stats.summary(0).stepMsP50).toBe(1);
  });
});
