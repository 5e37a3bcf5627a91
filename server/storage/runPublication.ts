/**
 * Publishing model runs to a remote object store (S3): the ingest builds a run in its local staging
 * directory as always (server/ingest/layout.ts, its scratch disk), then
 *
 *   publishRunToStore       uploads the run's files to {directory}/runs/{id}/..., its data first,
 *                           run.json and minifest.json after, and the pointer {directory}/current.json
 *                           LAST: a reader that finds the pointer finds the whole run; an upload that
 *                           fails midway leaves the pointer naming the previous run;
 *   publishSnapshotToStore  a snapshot of a run still being built (layout.ts publishSnapshot): the
 *                           tiles and native fields new since the last snapshot go to the build's
 *                           {directory}/builds/{YYYYMMDDHH}/ (objects cannot be linked as the local
 *                           snapshots' directories are), the snapshot's point stores and manifests
 *                           to runs/{id}/ with run.json naming the build's prefix (RunManifest.objects),
 *                           then the pointer;
 *   pruneStoredRuns         removes runs beyond the newest KEEP_RUNS, and snapshots, once readers
 *                           have moved on: RUN_GRACE_MS after the run stopped being current. The
 *                           pointer records when each run it replaced stopped (`retired`), since
 *                           object stores have no rename to date it by.
 *
 * The local data directory keeps layout.ts's rename-based publication.
 */

import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { hourStamp } from '../../common/minifest.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';
import {
  becomesCurrent, currentPointerKey, isRunId, KEEP_RUNS, listRunIds, readRunManifest, runKey,
} from '../ingest/layout.ts';
import type { ObjectStore } from './objectStore.ts';

/** How long a run that stopped being current stays readable: readers trust the pointer for a second, and a request may take longer. */
export const RUN_GRACE_MS = 2 * MINUTE_MS;
/** A run without run.json (an upload that failed, or one still going in another process) is removed this long after its id was made. */
const UNFINISHED_UPLOAD_MS = 6 * HOUR_MS;
/** Uploads in flight at once. */
const UPLOAD_CONCURRENCY = 16;
/** What a staging directory holds only while it builds (layout.ts): never uploaded. */
const BUILD_ONLY = new Set(['build.json', '.lock', 'points', 'accum']);
/** Written after everything they describe. */
const MANIFESTS = ['run.json', 'minifest.json'];
/** The object that marks a build's prefix. */
const BUILD_MARKER = 'build.json';
/** The parts of a run a snapshot shares with its build (layout.ts SNAPSHOT_LINKS). */
const SHARED_PARTS = ['tiles', 'native'];

/** current.json in object storage: the run served, and when each run it replaced stopped being served. */
interface StoredPointer {
  run: string;
  published: string;
  /** Run id to ISO 8601 time it stopped being current, for runs still stored. */
  retired?: Record<string, string>;
}

/** The objects of a build's snapshots: its tiles and native fields (ends in '/'). */
export function buildKey(directory: string, refTime: number): string {
  return `${directory}/builds/${hourStamp(refTime)}/`;
}

/** Files under `dir`, as '/'-separated paths relative to it, with their modification times. */
async function localFiles(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path).split(sep).join('/'), (await stat(path)).mtimeMs);
  }
  return files;
}

/** Uploads files of `dir` (relative paths) to `prefix`, UPLOAD_CONCURRENCY at a time; the first failure stops it and throws. */
async function upload(store: ObjectStore, prefix: string, dir: string, rels: string[]): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < rels.length) {
      const rel = rels[next++];
      try {
        await store.putFile(prefix + rel, join(dir, rel));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, rels.length) }, worker));
}

/** Uploads a run directory's files: everything but the manifests, then the manifests. */
async function uploadRun(store: ObjectStore, prefix: string, dir: string, rels: string[]): Promise<void> {
  await upload(store, prefix, dir, rels.filter((rel) => !MANIFESTS.includes(rel)));
  await upload(store, prefix, dir, MANIFESTS.filter((rel) => rels.includes(rel)));
}

/**
 * Publishes the run built in `staging` (its point stores and manifests written, layout.ts) as
 * runs/{id}, makes it current unless the current run is newer, prunes; the staging directory is
 * left to the caller (removed once this answers).
 */
export async function publishRunToStore(
  store: ObjectStore, directory: string, staging: string, id: string, refTime: number, now: () => number = Date.now,
): Promise<{ current: boolean }> {
  const rels = [...(await localFiles(staging)).keys()].filter((rel) => !BUILD_ONLY.has(rel.split('/')[0]));
  await uploadRun(store, runKey(directory, id), staging, rels);
  return makeCurrent(store, directory, id, refTime, now);
}

/** What a build has uploaded for its snapshots: relative path to the modification time uploaded. */
export type SnapshotUploads = Map<string, number>;

/**
 * Publishes a snapshot of the run still being built in `staging`: its tiles and native fields new
 * since `uploaded` went up go to the build's prefix, then `write(dir, objects)` writes the
 * snapshot's point stores and manifests (naming that prefix) into a scratch directory that is
 * uploaded as runs/{id}, then the pointer.
 */
export async function publishSnapshotToStore(
  store: ObjectStore, directory: string, staging: string, id: string, refTime: number,
  write: (dir: string, objects: string) => Promise<void>, uploaded: SnapshotUploads, now: () => number = Date.now,
): Promise<{ current: boolean }> {
  const objects = buildKey(directory, refTime);
  // Marks the build where listing {directory}/builds/ finds it (one level down: some S3-compatible servers list no deeper).
  if (!uploaded.size) await store.put(`${objects}${BUILD_MARKER}`, `${JSON.stringify({ refTime: new Date(refTime).toISOString() })}\n`);
  for (const part of SHARED_PARTS) {
    const files = await localFiles(join(staging, part));
    const fresh = [...files].filter(([rel, mtime]) => uploaded.get(`${part}/${rel}`) !== mtime);
    await upload(store, `${objects}${part}/`, join(staging, part), fresh.map(([rel]) => rel));
    for (const [rel, mtime] of fresh) uploaded.set(`${part}/${rel}`, mtime);
  }
  const scratch = `${staging}.snapshot`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  try {
    await write(scratch, objects);
    await uploadRun(store, runKey(directory, id), scratch, [...(await localFiles(scratch)).keys()]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return makeCurrent(store, directory, id, refTime, now);
}

async function readPointer(store: ObjectStore, directory: string): Promise<StoredPointer | null> {
  try {
    const pointer = JSON.parse((await store.get(currentPointerKey(directory)))?.toString('utf8') ?? 'null') as StoredPointer | null;
    return typeof pointer?.run === 'string' && isRunId(pointer.run) ? pointer : null;
  } catch {
    return null;
  }
}

/** Points current.json at runs/{id} unless the current run is newer (recording when the one it replaces stopped), then prunes. */
async function makeCurrent(store: ObjectStore, directory: string, id: string, refTime: number, now: () => number): Promise<{ current: boolean }> {
  const pointer = await readPointer(store, directory);
  const current = becomesCurrent(pointer?.run ?? null, refTime);
  if (current) {
    const retired = { ...pointer?.retired };
    if (pointer && pointer.run !== id) retired[pointer.run] = new Date(now()).toISOString();
    const stored = new Set(await listRunIds(store, directory));
    for (const old of Object.keys(retired)) if (!stored.has(old)) delete retired[old];
    const next: StoredPointer = { run: id, published: new Date(now()).toISOString(), retired };
    await store.put(currentPointerKey(directory), `${JSON.stringify(next)}\n`);
  }
  await pruneStoredRuns(store, directory, now());
  return { current };
}

/** When the run's id was made (layout.ts newRunId: the hour stamp, then ms since 1970 in base 36 and 4 random hex digits). */
function idTime(id: string): number {
  return parseInt(id.slice(11, -4), 36);
}

/**
 * Removes runs beyond the newest KEEP_RUNS, and snapshots, never the current one, each only once
 * RUN_GRACE_MS have passed since it stopped being current (or, never current, since it was
 * published); then the builds no snapshot left uses. Answers the ids removed.
 */
export async function pruneStoredRuns(store: ObjectStore, directory: string, now = Date.now(), keep = KEEP_RUNS): Promise<string[]> {
  const pointer = await readPointer(store, directory);
  const removed: string[] = [];
  const builds = new Set<string>();
  let runs = 0;
  for (const id of await listRunIds(store, directory)) {
    const manifest = await readRunManifest(store, directory, id);
    const snapshot = manifest?.objects !== undefined;
    const newest = manifest !== null && !snapshot && runs++ < keep;
    if (id === pointer?.run || newest) {
      if (snapshot) builds.add(manifest.objects!);
      continue;
    }
    const retired = pointer?.retired?.[id];
    const since = retired ? Date.parse(retired) : manifest ? Date.parse(manifest.published) : idTime(id);
    if (now - since < (manifest ? RUN_GRACE_MS : UNFINISHED_UPLOAD_MS)) {
      if (snapshot) builds.add(manifest.objects!);
      continue;
    }
    await store.deletePrefix(runKey(directory, id));
    removed.push(id);
  }
  // A build's objects go once no snapshot uses them and its run is published whole or superseded.
  const currentStamp = pointer?.run.slice(0, 10) ?? '';
  for (const stamp of await store.list(`${directory}/builds/`)) {
    const prefix = `${directory}/builds/${stamp}/`;
    if (!builds.has(prefix) && stamp <= currentStamp) await store.deletePrefix(prefix);
  }
  return removed;
}
