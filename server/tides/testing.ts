/** Test helper: NOAA CO-OPS tide fixtures of ../shared/data/obs/tides (never copied here). */

import { readFixture } from '../live/testing.ts';

export const TIDE_FIXTURES = {
  /** Friday Harbor WA (9449880): 37 constituents and NOAA's official high/low waters 2026-07-15..17, MLLW, GMT. */
  fridayHarbor: 'obs/tides/noaa-coops_9449880-friday-harbor_harcon-and-hilo-predictions_20260715-17.json',
} as const;

export interface NoaaTideFixture {
  station: string;
  datum: string;
  /** MSL - MLLW, metres. */
  offset: number;
  start: string;
  end: string;
  constituents: { name: string; amplitude: number; phase: number }[];
  official: { time: string; height: number; kind: 'high' | 'low' }[];
}

export async function readTideFixture(path: string): Promise<NoaaTideFixture> {
  return JSON.parse(new TextDecoder().decode(await readFixture(path))) as NoaaTideFixture;
}
