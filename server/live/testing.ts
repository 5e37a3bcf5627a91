/**
 * Test helper: the GRIB2 fixtures of ../shared/data (never copied into the repository, DESIGN.md),
 * what to do when they are absent, and how to cut them into the per-run, per-step files an
 * upstream would publish.
 */

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { concatBytes as concatParts, FIXTURES_DIR as FIXTURES_URL } from '../../engine/grib/testing.ts';
import { gribFields } from './fixtureIndex.ts';

// Where the fixtures are and what their absence means are the engine's test rules (engine/grib/testing.ts).
export { describeWithFixtures, fixturesPresent, fixturesRequired, readFixture } from '../../engine/grib/testing.ts';
/** ../shared/data as a folder path ending in a slash. */
export const FIXTURES_DIR = fileURLToPath(FIXTURES_URL);

export const FIXTURE = {
  gfsWindSeries: 'samples/gfs-1p0-wind-2018-10/gfs1p0_10m-uv_2018100618-2018101621_3h.grib2',
  gfs2p5Full: 'samples/gfs-2p5-full/gfs2p5_20110110T12_f120_full.grib2',
  gfs2p5Analysis: 'samples/gfs-2p5-full/gfs2p5_20170322T00_f000_full.grib2',
  wave: 'samples/wave/gfswave-global0p16_swh_20260819T00_f000_t5.40.grib2',
  ecmwfTprate: 'grib2/ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2',
  ecmwf2t: 'grib2/ecmwf_2t_16x31_20080206_t5.0-tiny.grib2',
  gfsWind1p0: 'grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2',
  gfsGh500: 'grib2/gfs0p25_gh500_20201026T00_f024_t5.3.grib2',
  iconIcosahedral: 'grib2/icon-global-icosahedral_tot_prec_20211120T18_f000_t5.0-constant.grib2',
} as const;

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  return concatParts(...parts);
}

/** The messages of a file grouped by run and forecast hour, as an upstream would publish them. */
export function splitByRunAndStep(bytes: Uint8Array): Map<number, Map<number, Uint8Array>> {
  const parts = new Map<number, Map<number, Uint8Array[]>>();
  for (const field of gribFields(bytes)) {
    if (field.field !== 1) continue;
    const run = parts.get(field.refTime) ?? new Map<number, Uint8Array[]>();
    parts.set(field.refTime, run);
    const step = field.forecastHours + (field.statistic?.hours ?? 0);
    run.set(step, [...(run.get(step) ?? []), bytes.subarray(field.messageOffset, field.messageOffset + field.messageLength)]);
  }
  return new Map([...parts].map(([run, steps]) => [run, new Map([...steps].map(([step, p]) => [step, concatBytes(p)]))]));
}

/** bzip2-compresses bytes with the system program (as DWD publishes them); null when it is absent. */
export function bzip2(bytes: Uint8Array): Uint8Array | null {
  const result = spawnSync('bzip2', ['-c'], { input: bytes, maxBuffer: 256 * 1024 * 1024 });
  return result.status === 0 ? new Uint8Array(result.stdout) : null;
}

/**
 * Rejects with the signal's reason once it aborts, at once where it already has: a test's stand-in
 * for a wait that only a stop ends. (Listening for 'abort' alone misses a signal aborted before the
 * wait began: a server closed as a round ended then waited for ever.)
 */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (signal?.aborted) reject(signal.reason);
    else signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A test clock and sleep: sleeping advances the clock at once and records the wait. */
export function fakeTime(start: number): { now: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void>; sleeps: number[] } {
  let time = start;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleeps,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      time += ms;
    },
  };
}

/**
 * Byte-for-byte equality, reported with the first differing offset (vitest's toEqual walks large
 * typed arrays element by element: seconds per megabyte).
 */
export function byteDifference(actual: Uint8Array | undefined, expected: Uint8Array | undefined): string | null {
  if (!actual || !expected) return `missing bytes: actual ${actual?.length}, expected ${expected?.length}`;
  if (Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))) return null;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  return `bytes differ at offset ${i} (lengths ${actual.length} and ${expected.length})`;
}
