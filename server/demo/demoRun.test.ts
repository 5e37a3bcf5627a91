import { describe, expect, it } from 'vitest';
import { parseMinifest } from '../../common/minifest.ts';
import { demoMinifest, demoRefTime, demoRun, isDemoStep } from './demoRun.ts';
import { HOUR_MS } from '../../common/time.ts';

describe('demo runs', () => {
  it.each([
    ['2025-11-26T00:00:00Z', '2025-11-26T00:00:00Z'],
    ['2025-11-26T07:30:00Z', '2025-11-26T00:00:00Z'],
    ['2025-11-26T11:59:59Z', '2025-11-26T00:00:00Z'],
    ['2025-11-26T12:00:00Z', '2025-11-26T12:00:00Z'],
    ['2025-11-26T23:59:00Z', '2025-11-26T12:00:00Z'],
  ])('at %s the run is %s', (now, ref) => {
    expect(demoRefTime(Date.parse(now))).toBe(Date.parse(ref));
  });

  it('has hourly steps for 240 hours', () => {
    const run = demoRun(Date.parse('2025-11-26T07:30:00Z'));
    expect(run.steps).toHaveLength(241);
    expect(run.steps[0]).toBe(run.refTime);
    expect(run.steps[240]).toBe(run.refTime + 240 * HOUR_MS);
    expect(isDemoStep(run, run.refTime + 17 * HOUR_MS)).toBe(true);
    expect(isDemoStep(run, run.refTime + 17.5 * HOUR_MS)).toBe(false);
    expect(isDemoStep(run, run.refTime - HOUR_MS)).toBe(false);
    expect(isDemoStep(run, run.refTime + 241 * HOUR_MS)).toBe(false);
  });

  it('publishes a minifest the client parser accepts, flagged as demo', () => {
    const run = demoRun(Date.parse('2025-11-26T07:30:00Z'));
    const minifest = demoMinifest(run);
    expect(minifest).toEqual({ ref: '2025-11-26T00:00:00.000Z', dst: [[1, 0, 240]], update: '2025-11-26T00:00:00.000Z', v: '1.0', demo: true });
    const calendar = parseMinifest(minifest);
    expect(calendar.timestamps).toEqual(run.steps);
  });
});
