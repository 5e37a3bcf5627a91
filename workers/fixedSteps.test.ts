import { describe, expect, it } from 'vitest';
import { FixedSteps, MAX_FIXED_STEPS } from './fixedSteps.ts';

describe('FixedSteps', () => {
  it('counts the drawn steps and holds after the last one', () => {
    const fixed = new FixedSteps({ seed: 7, steps: 3 });
    expect(fixed.done).toBe(false);
    expect(fixed.stepDrawn()).toBe(true);
    expect(fixed.stepDrawn()).toBe(true);
    expect(fixed.stepDrawn()).toBe(false);
    expect(fixed.done).toBe(true);
    expect(fixed.state(true)).toEqual({ seed: 7, steps: 3, drawn: 3, held: true });
    // A frame still waiting: not held yet.
    expect(fixed.state(false).held).toBe(false);
  });

  it('counts again from the first step after a change of the picture', () => {
    const fixed = new FixedSteps({ seed: 1, steps: 2 });
    fixed.stepDrawn();
    fixed.stepDrawn();
    fixed.restart();
    expect(fixed.done).toBe(false);
    expect(fixed.state(true)).toEqual({ seed: 1, steps: 2, drawn: 0, held: false });
  });

  it('with no steps, holds at once: the picture without particles', () => {
    expect(new FixedSteps({ seed: 1, steps: 0 }).state(true).held).toBe(true);
  });

  it('holds without a step where the picture has no particles to draw', () => {
    const fixed = new FixedSteps({ seed: 1, steps: 40 });
    expect(fixed.state(true, false).held).toBe(true);
    expect(fixed.state(true, true).held).toBe(false);
    expect(fixed.state(false, false).held).toBe(false);
  });

  it.each([
    ['a fractional seed', { seed: 1.5, steps: 1 }, /seed 1.5/],
    ['a negative seed', { seed: -1, steps: 1 }, /seed -1/],
    ['a seed over 32 bits', { seed: 2 ** 32, steps: 1 }, /seed/],
    ['negative steps', { seed: 1, steps: -1 }, /steps -1/],
    ['fractional steps', { seed: 1, steps: 2.5 }, /steps 2.5/],
    ['too many steps', { seed: 1, steps: MAX_FIXED_STEPS + 1 }, /steps/],
  ])('refuses %s', (_, params, message) => {
    expect(() => new FixedSteps(params)).toThrow(message);
  });
});
