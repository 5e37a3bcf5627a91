/**
 * Fixed particle steps for the render tests (tests/render): the particles spawn from a given seed
 * and exactly `steps` particle steps are drawn after each change of the picture (view, layer, time,
 * tiles, basemap), then the render loop holds until the next change. The same case then gives the
 * same pixels, however fast the machine draws or the tiles arrive.
 */

export interface FixedStepsParams {
  /** Seed of the particles' generator (engine/assembly/particles.ts particlesInit). */
  seed: number;
  /** Particle steps drawn after the last change; 0 draws the picture without particles. */
  steps: number;
}

export interface FixedStepsState {
  seed: number;
  steps: number;
  /** Steps drawn since the last change of the picture. */
  drawn: number;
  /** All steps drawn, nothing loading, no frame waiting: the canvas holds its pixels. */
  held: boolean;
}

/** The most steps a case may ask for: 10 minutes of frames at 60 /s. */
export const MAX_FIXED_STEPS = 36_000;

export class FixedSteps {
  readonly seed: number;
  readonly steps: number;
  drawn = 0;

  constructor({ seed, steps }: FixedStepsParams) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`Particle seed ${seed} must be a whole number from 0 to ${0xffffffff}`);
    }
    if (!Number.isInteger(steps) || steps < 0 || steps > MAX_FIXED_STEPS) {
      throw new RangeError(`Particle steps ${steps} must be a whole number from 0 to ${MAX_FIXED_STEPS}`);
    }
    this.seed = seed;
    this.steps = steps;
  }

  /** The picture changed: the steps count again from the first. */
  restart(): void {
    this.drawn = 0;
  }

  /** Whether every step has been drawn since the last change. */
  get done(): boolean {
    return this.drawn >= this.steps;
  }

  /** Notes a drawn step; returns whether more are to come. */
  stepDrawn(): boolean {
    this.drawn++;
    return !this.done;
  }

  /**
   * `idle`: no frame waits and nothing loads; `particles`: the picture has particles to draw (an
   * overlay without them, or with no wind data, holds without any step).
   */
  state(idle: boolean, particles = true): FixedStepsState {
    return { seed: this.seed, steps: this.steps, drawn: this.drawn, held: idle && (this.done || !particles) };
  }
}
