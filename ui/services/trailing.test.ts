import { afterEach, describe, expect, it, vi } from 'vitest';
import { trailing } from './trailing.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('trailing (debounce of a burst of changes)', () => {
  it('runs once, ms after the last of a burst, with one timer for the whole burst', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const debounced = trailing(run, 200, () => Date.now());
    // A pan: a change every 16 ms for a second.
    for (let t = 0; t < 1000; t += 16) {
      debounced.poke();
      vi.advanceTimersByTime(16);
    }
    expect(run).not.toHaveBeenCalled();
    // Re-armed once per elapsed period at most, not once per change (63 changes).
    expect(setTimeoutSpy.mock.calls.length).toBeLessThanOrEqual(7);
    vi.advanceTimersByTime(199 - 16);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs again for a later change, and not at all once cancelled', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const debounced = trailing(run, 50, () => Date.now());
    debounced.poke();
    vi.advanceTimersByTime(50);
    expect(run).toHaveBeenCalledTimes(1);
    debounced.poke();
    vi.advanceTimersByTime(20);
    debounced.cancel();
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
    debounced.poke();
    vi.advanceTimersByTime(50);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
