import { describe, expect, it } from 'vitest';
import { eventLoopSlices } from './slices.ts';

describe('eventLoopSlices', () => {
  it('gives the event loop a turn once a slice has lasted its time, and not before', async () => {
    let clock = 0;
    const slice = eventLoopSlices(50, () => clock);
    clock = 49;
    expect(slice()).toBeNull();
    clock = 50;
    const turn = slice();
    expect(turn).not.toBeNull();
    await turn;
    // The next slice starts after the turn.
    clock = 80;
    expect(slice()).toBeNull();
    clock = 100;
    expect(slice()).not.toBeNull();
  });

  it('lets a timer run in the middle of long synchronous work', async () => {
    const slice = eventLoopSlices(20);
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    const end = performance.now() + 200;
    while (performance.now() < end) {
      const t = performance.now() + 2;
      while (performance.now() < t); // a piece of work
      await slice();
    }
    clearInterval(timer);
    // Held for 200 ms in one piece, the interval would not have ticked at all.
    expect(ticks.length).toBeGreaterThanOrEqual(3);
  });
});
