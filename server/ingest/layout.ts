/**
 * Where ingested runs live on disk, and how a run becomes visible: the one contract between the
 * ingest (writer) and the server (reader). DESIGN.md "When one machine is not enough": everything
 * under runs/ is immutable once published, so it can live in object storage behind a CDN; only the
 * small current.json pointer changes.
 *
 *   {dataDir}/                               ISOBAR_DATA_DIR, default var/data
 *     {directory}/                           a product's directory (common/catalogue PRODUCTS)
 *       current.json                         {"run": "<id>"}: the run served; replaced by rename
 *       runs/{id}/                           a published run, id = {YYYYMMDDHH}-{base36 ms}
 *         run.json                           RunManifest (below)
 *         minifest.json                      what /metadata/v1.0/{directory}/minifest.json sends
 *         tiles/{valid}/{z}/{x}/{y}/{file}-{level}.tile
 *                                            gzip of a data tile (common/tile.ts); pre-rendered
 *                                            zooms at ingest, the rest rendered on first request
 *         native/{valid}/{file}-{level}.tile gzip of one data tile holding the whole model grid
 *         points.bin                         the point-series store (points.ts), with the run's
 *                                            constant fields (model terrain height) at its end
         levels.bin                         the same format for pressure-level variables (meteogram)
 *       staging/{YYYYMMDDHH}/                a run being built, same layout plus build.json,
 *                                            points/{hour}.slab and accum/*.f32
 *       staging/{YYYYMMDDHH}/.lock           pid of the process building it
 *
 * Publishing (publishRun): the staging directory is renamed to runs/{id} (same file system: one
 * atomic rename), then current.json is written to a temporary file and renamed over the old one.
 * A reader sees the old run or the new one, never half of one; an ingest killed at any point
 * leaves current.json naming the previous run. Runs beyond the newest KEEP_RUNS are removed after.
 *
 * A run published step by step (the first run a server fetches: something real to show within
 * minutes) is served from snapshots while it is built (publishSnapshot): runs/{id}/ with its own
 * run.json, minifest.json and point stores for the steps built so far, and `tiles` and `native`
 * as symbolic links into the staging directory, which keeps growing. Each snapshot gets a new id;
 * a snapshot that is not current is removed by the next prune (its links would dangle once the
 * build is published).
 *
 * With a remote object store (ISOBAR_STORAGE_URL, server/storage/README.md) the same layout is kept
 * as object keys (currentPointerKey, runKey); the staging directory stays here, on the ingest's
 * disk, and publishing uploads instead of renaming (server/storage/runPublication.ts).
 */

import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readFile, rename, rm, symlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { hourStamp } from '../../common/minifest.ts';
import { LocalDirectoryStore, writeFileAtomic } from '../storage/localDirectory.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import type { PointGrid } from './points.ts';

export { writeFileAtomic };

const DEFAULT_DATA_DIR = 'var/data';
/** Published runs kept per product: the current one and the one before (clients still on its minifest). */
export const KEEP_RUNS = 2;
export const RUN_FORMAT = 1;

/** The data directory: ISOBAR_DATA_DIR, else var/data under the working directory. */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ISOBAR_DATA_DIR || DEFAULT_DATA_DIR);
}

export interface RunLayer {
  file: string;
  level: string;
  channels: number;
  /** Forecast hours this layer has (rain has none at hour 0, for instance). */
  hours: number[];
  /** Highest data zoom written at ingest; zooms above it up to the product's maximum are rendered on request. */
  prerendered: number;
}

/** A point store: its file and grid (PointGrid), and what it holds. */
export interface PointStoreInfo extends PointGrid {
  /** points.bin: surface variables on the point grid; levels.bin: pressure-level variables (`temp-850h`) on the level point grid. */
  file: 'points.bin' | 'levels.bin';
  variables: string[];
  /**
   * points.bin: run-constant variables in its static section (the model's terrain height), [] for
   * none; absent in runs published before the static section existed.
   */
  statics?: string[];
  bytes: number;
}

/** run.json: everything the server needs to know about a published run. */
export interface RunManifest {
  format: typeof RUN_FORMAT;
  id: string;
  product: string;
  directory: string;
  /** ms since 1970 UTC. */
  refTime: number;
  /** Forecast hours of the run's steps, ascending. */
  hours: number[];
  /** Keyed `${file}-${level}`. */
  layers: Record<string, RunLayer>;
  /** Highest data zoom served (the product's premium maximum). */
  maxZoom: number;
  /** Area the model grid covers (longitudes in its own frame, east may pass 180); null = global. */
  bounds: { west: number; east: number; north: number; south: number } | null;
  points: PointStoreInfo | null;
  /**
   * Pressure-level series for the meteogram and airgram (SPEC §7 /forecast/meteogram), variables
   * named `{ident}-{level}`; absent in runs published before it existed, null when the run has no
   * pressure levels.
   */
  levelPoints?: PointStoreInfo | null;
  /** When it was published, ISO 8601. */
  published: string;
  /**
   * Key prefix (ending in '/') of the run's tiles/ and native/ when they are not under its own
   * runs/{id}/: a snapshot in object storage shares its build's (server/storage/runPublication.ts).
   */
  objects?: string;
  /** What the ingest did. */
  stats: { tiles: number; ms: number; files: number };
}

export function layerKey(file: string, level: string): string {
  return `${file}-${level}`;
}

export function productDir(dataDir: string, directory: string): string {
  return join(dataDir, directory);
}

function runsDir(dataDir: string, directory: string): string {
  return join(dataDir, directory, 'runs');
}

export function runDir(dataDir: string, directory: string, id: string): string {
  return join(dataDir, directory, 'runs', id);
}

export function stagingDir(dataDir: string, directory: string, refTime: number): string {
  return join(dataDir, directory, 'staging', hourStamp(refTime));
}

export function currentPointerPath(dataDir: string, directory: string): string {
  return join(dataDir, directory, 'current.json');
}

/** The same places as object keys (server/storage/objectStore.ts): the pointer, the runs, a run (ending in '/'). */
export function currentPointerKey(directory: string): string {
  return `${directory}/current.json`;
}

export function runsKey(directory: string): string {
  return `${directory}/runs/`;
}

export function runKey(directory: string, id: string): string {
  return `${directory}/runs/${id}/`;
}

/** Relative path of a data tile inside a run directory. */
export function tileRelPath(validTime: number, z: number, x: number, y: number, file: string, level: string): string {
  return join('tiles', hourStamp(validTime), String(z), String(x), String(y), `${file}-${level}.tile`);
}

/** Relative path of a native-grid field inside a run directory. */
export function nativeRelPath(validTime: number, file: string, level: string): string {
  return join('native', hourStamp(validTime), `${file}-${level}.tile`);
}

export function newRunId(refTime: number, now = Date.now()): string {
  return `${hourStamp(refTime)}-${now.toString(36)}${randomBytes(2).toString('hex')}`;
}

const RUN_ID = /^(\d{10})-([0-9a-z]+)$/;

export function isRunId(id: string): boolean {
  return RUN_ID.test(id);
}

/**
 * Takes the lock file at `path` (holding this process's pid), or answers the pid of the live
 * process that holds it. A lock left by a process that is gone, or by this one, is taken over.
 */
export async function acquirePidLock(path: string): Promise<{ release(): Promise<void> } | { heldBy: number }> {
  for (let tries = 0; ; tries++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(await readFile(path, 'utf8').catch(() => ''));
      const live = Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid);
      // A second refusal: another process took the lock over between the two tries.
      if (live || tries > 0) return { heldBy: pid };
      await rm(path, { force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where published runs are read from: a store, or (a string) the data directory. */
export type RunStorage = ObjectStore | string;

function asStore(where: RunStorage): ObjectStore {
  return typeof where === 'string' ? new LocalDirectoryStore(where) : where;
}

/** The id current.json names, or null when the product has no published run (or the pointer is unreadable). */
export async function readCurrentRunId(where: RunStorage, directory: string): Promise<string | null> {
  try {
    const pointer = JSON.parse((await asStore(where).get(currentPointerKey(directory)))?.toString('utf8') ?? 'null') as { run?: unknown } | null;
    return typeof pointer?.run === 'string' && isRunId(pointer.run) ? pointer.run : null;
  } catch {
    return null;
  }
}

export async function readRunManifest(where: RunStorage, directory: string, id: string): Promise<RunManifest | null> {
  try {
    const bytes = await asStore(where).get(`${runKey(directory, id)}run.json`);
    const manifest = bytes && JSON.parse(bytes.toString('utf8')) as RunManifest;
    return manifest?.format === RUN_FORMAT && manifest.id === id ? manifest : null;
  } catch {
    return null;
  }
}

/** Published run ids of a product, newest reference time first (then newest publication). */
export async function listRunIds(where: RunStorage, directory: string): Promise<string[]> {
  return (await asStore(where).list(runsKey(directory))).filter(isRunId).sort().reverse();
}

/**
 * Makes a staged run visible: renames the staging directory to runs/{id}, points current.json at it
 * (atomically), then removes all but the newest KEEP_RUNS runs. A run older than the current one
 * is published but does not become current (an old run ingested late must not replace a newer one).
 */
export async function publishRun(dataDir: string, directory: string, staging: string, id: string, refTime: number): Promise<{ current: boolean }> {
  await mkdir(runsDir(dataDir, directory), { recursive: true });
  await rename(staging, runDir(dataDir, directory, id));
  return makeCurrent(dataDir, directory, id, refTime);
}

/** Whether a run of `refTime` replaces the current one: an old run ingested late must not. */
export function becomesCurrent(currentId: string | null, refTime: number): boolean {
  return currentId === null || currentId.slice(0, 10) <= hourStamp(refTime);
}

/** Points current.json at a run in runs/ unless the current run is newer, then prunes. */
async function makeCurrent(dataDir: string, directory: string, id: string, refTime: number): Promise<{ current: boolean }> {
  const currentId = await readCurrentRunId(dataDir, directory);
  const current = becomesCurrent(currentId, refTime);
  if (current) await writeFileAtomic(currentPointerPath(dataDir, directory), `${JSON.stringify({ run: id, published: new Date().toISOString() })}\n`);
  await pruneRuns(dataDir, directory);
  return { current };
}

/** The parts of a run directory a snapshot links to in the staging directory instead of copying. */
const SNAPSHOT_LINKS = ['tiles', 'native'] as const;

/**
 * Publishes a snapshot of a run still being built in `staging`: `write(dir)` writes run.json,
 * minifest.json and the point stores into the new runs/{id}, whose tiles/ and native/ are links
 * into the staging directory. Made current as publishRun does.
 */
export async function publishSnapshot(
  dataDir: string, directory: string, staging: string, id: string, refTime: number, write: (dir: string) => Promise<void>,
): Promise<{ current: boolean }> {
  const dir = runDir(dataDir, directory, id);
  const temporary = `${dir}.tmp`;
  await rm(temporary, { recursive: true, force: true });
  await mkdir(temporary, { recursive: true });
  for (const name of SNAPSHOT_LINKS) {
    await mkdir(join(staging, name), { recursive: true });
    await symlink(relative(dir, join(staging, name)), join(temporary, name), 'dir');
  }
  await write(temporary);
  await rename(temporary, dir);
  return makeCurrent(dataDir, directory, id, refTime);
}

/** Whether a published run is a snapshot of a build (its tiles link into staging/). */
async function isSnapshot(dir: string): Promise<boolean> {
  return lstat(join(dir, 'tiles')).then((s) => s.isSymbolicLink(), () => false);
}

/** Removes published runs beyond the newest KEEP_RUNS, and snapshots, never the current one. */
async function pruneRuns(dataDir: string, directory: string, keep = KEEP_RUNS): Promise<string[]> {
  const currentId = await readCurrentRunId(dataDir, directory);
  const ids = await listRunIds(dataDir, directory);
  const removed: string[] = [];
  let runs = 0;
  for (const id of ids) {
    const dir = runDir(dataDir, directory, id);
    const newest = !(await isSnapshot(dir)) && runs++ < keep;
    if (id === currentId || newest) continue;
    removed.push(id);
    await rm(dir, { recursive: true, force: true });
  }
  return removed;
}
