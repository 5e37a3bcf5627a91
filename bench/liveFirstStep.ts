/**
 * Issue 13 §1 bench: the first real step served after a cold start. The whole server
 * (server/main.ts) in its own process with an empty data directory, ISOBAR_SOURCES=gfs pointed at
 * the fixture server throttled to 50 Mbit/s (a home connection) holding a whole GFS run
 * (server/live/fixtureRun.ts: the fields the GFS source asks for from the real 2.5° analysis file,
 * as every step). Measured from the spawn to the first 200 of the GFS minifest (its first step
 * served), and to the server's first answer. Target <= 120 s.
 *
 *   npx tsx bench/liveFirstStep.ts     this case alone; npm run bench writes it to RESULTS.md
 */

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { minifestPath } from '../common/api/products.ts';
import { SECOND_MS } from '../common/time.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { GFS_STEPS, newestGfsRun, putGfsRun } from '../server/live/fixtureRun.ts';
import { builtProgram } from '../server/ops/builtModules.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ANALYSIS = fileURLToPath(new URL('../../shared/data/samples/gfs-2p5-full/gfs2p5_20170322T00_f000_full.grib2', import.meta.url));
export const LIVE_FIRST_STEP_BUDGET_MS = 120 * SECOND_MS;
const BITS_PER_SECOND = 50e6;
const GIVE_UP_MS = 600 * SECOND_MS;

export interface LiveFirstStepResult {
  /** Spawn to the server's first answer. */
  listeningMs: number;
  /** Spawn to the first 200 of the GFS minifest. */
  firstStepMs: number;
  stepBytes: number;
  steps: number;
  mbitPerSecond: number;
}

export async function benchLiveFirstStep(port = 8790): Promise<LiveFirstStepResult> {
  const fixture = await FixtureServer.start();
  fixture.bytesPerSecond = BITS_PER_SECOND / 8;
  const stepBytes = putGfsRun(fixture, new Uint8Array(await readFile(ANALYSIS)), newestGfsRun(Date.now()));
  const dataDir = await mkdtemp(join(tmpdir(), 'isobar-bench-live-'));
  const started = performance.now();
  const child = spawn(process.execPath, [builtProgram('server/main.ts')], {
    cwd: ROOT, stdio: 'ignore',
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', ISOBAR_DATA_DIR: dataDir, ISOBAR_DB_PATH: join(dataDir, 'isobar.sqlite'),
      ISOBAR_SAMPLES_DIR: 'none', ISOBAR_SOURCES: 'gfs', ISOBAR_GFS_URL: fixture.url, STRIPE_SECRET_KEY: '',
    },
  });
  const status = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.status, () => 0);
  let listeningMs = NaN;
  try {
    for (;;) {
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`No GFS step served within ${GIVE_UP_MS / SECOND_MS} s`);
      if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
      if (Number.isNaN(listeningMs) && (await status(minifestPath('demo'))) === 200) listeningMs = performance.now() - started;
      if ((await status(minifestPath('gfs'))) === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { listeningMs, firstStepMs: performance.now() - started, stepBytes, steps: GFS_STEPS.length, mbitPerSecond: BITS_PER_SECOND / 1e6 };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await fixture.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The RESULTS.md budget row. */
export function liveFirstStepCheck(r: LiveFirstStepResult): { what: string; budget: string; measured: string; ok: boolean } {
  return {
    what: `first real step served after a cold start (GFS from the fixture server at ${r.mbitPerSecond} Mbit/s, ${r.steps} steps of ${(r.stepBytes / 1e3).toFixed(0)} kB, 2.5° data)`,
    budget: `<= ${LIVE_FIRST_STEP_BUDGET_MS / SECOND_MS} s`,
    measured: `${(r.firstStepMs / SECOND_MS).toFixed(1)} s (server answering after ${(r.listeningMs / SECOND_MS).toFixed(1)} s)`,
    ok: r.firstStepMs <= LIVE_FIRST_STEP_BUDGET_MS,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchLiveFirstStep();
  console.log(JSON.stringify(result));
  console.log(liveFirstStepCheck(result));
}
