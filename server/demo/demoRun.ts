/**
 * The demo product's "runs": like a real model it publishes a run every 12 hours (00Z and 12Z,
 * PRODUCTS.demo.interval) with hourly steps for PRODUCTS.demo.forecastSize hours. The values do not
 * depend on the run (they are a pure function of place and time); the run only fixes which valid
 * times are offered and what the minifest says.
 */

import { MINIFEST_VERSION } from '../../common/api/products.ts';
import { PRODUCTS } from '../../common/catalogue/index.ts';
import type { Minifest } from '../../common/minifest.ts';
import { HOUR_MS } from '../../common/time.ts';

export const DEMO_PRODUCT = PRODUCTS.demo;
/** Hours between demo runs (SPEC §9: most models every 720 min). */
const DEMO_RUN_HOURS = DEMO_PRODUCT.interval / 60;
/** Hours between steps: hourly, the Premium step (SPEC §9). */
export const DEMO_STEP_HOURS = 1;
const DEMO_FORECAST_HOURS = DEMO_PRODUCT.forecastSize;

export interface DemoRun {
  refTime: number;
  /** Valid times, ms, ascending. */
  steps: number[];
}

/** The latest 00Z or 12Z at or before now (UTC). */
export function demoRefTime(nowMs: number): number {
  const period = DEMO_RUN_HOURS * HOUR_MS;
  return Math.floor(nowMs / period) * period;
}

export function demoRun(nowMs: number): DemoRun {
  const refTime = demoRefTime(nowMs);
  const steps: number[] = [];
  for (let h = 0; h <= DEMO_FORECAST_HOURS; h += DEMO_STEP_HOURS) steps.push(refTime + h * HOUR_MS);
  return { refTime, steps };
}

/** Whether a valid time is one of the run's steps. */
export function isDemoStep(run: DemoRun, validTime: number): boolean {
  const hours = (validTime - run.refTime) / HOUR_MS;
  return Number.isInteger(hours) && hours >= 0 && hours <= DEMO_FORECAST_HOURS && hours % DEMO_STEP_HOURS === 0;
}

/** SPEC §3 Minifest for the demo run; `demo: true` makes the UI label it "Demo data". */
export function demoMinifest(run: DemoRun): Required<Minifest> {
  const ref = new Date(run.refTime).toISOString();
  return { ref, dst: [[DEMO_STEP_HOURS, 0, DEMO_FORECAST_HOURS]], update: ref, v: MINIFEST_VERSION, demo: true };
}
