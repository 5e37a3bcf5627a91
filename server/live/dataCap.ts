/**
 * The data directory's cap (ISOBAR_DATA_MAX_GB): when the directory holds more, what is least
 * needed goes first, oldest reference time first: published runs that are not current, builds
 * left in staging/ and downloads of other runs. The runs being served (current.json) and the run
 * being fetched (`keep`) are never removed; when they alone are over the cap the download stops
 * with a DataCapError and one log line that says so.
 */

import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { listRunIds, readCurrentRunId } from '../ingest/layout.ts';
import type { SourceLogger } from './source.ts';
import { runParts } from './source.ts';

export class DataCapError extends Error {
  override name = 'DataCapError';
}

export const GB = 1024 ** 3;

/** ISOBAR_DATA_MAX_GB in bytes; undefined when unset. */
export function dataCapFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const gb = Number(value);
  if (!Number.isFinite(gb) || gb <= 0) throw new Error(`ISOBAR_DATA_MAX_GB: "${value}" is not a positive number of gigabytes`);
  return Math.round(gb * GB);
}

/** Bytes of the files under `path`; symbolic links are not followed (a snapshot's tiles are its build's). */
export async function treeBytes(path: string): Promise<number> {
  const info = await lstat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.isSymbolicLink() ? 0 : info.size;
  let total = 0;
  for (const name of await readdir(path).catch(() => [] as string[])) total += await treeBytes(join(path, name));
  return total;
}

async function subdirectories(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

interface Removable { path: string; stamp: string; what: string }

/** What may go, oldest reference time (YYYYMMDDHH) first. */
async function removables(dataDir: string, keep: { source: string; refTime: number }): Promise<Removable[]> {
  const list: Removable[] = [];
  const keptStamp = runParts(keep.refTime).yyyymmddhh;
  for (const directory of await subdirectories(dataDir)) {
    if (directory === 'downloads') {
      for (const source of await subdirectories(join(dataDir, directory))) {
        for (const stamp of await subdirectories(join(dataDir, directory, source))) {
          if (source === keep.source && stamp === keptStamp) continue;
          list.push({ path: join(dataDir, directory, source, stamp), stamp, what: `download ${source} ${stamp}` });
        }
      }
      continue;
    }
    const current = await readCurrentRunId(dataDir, directory);
    for (const id of await listRunIds(dataDir, directory)) {
      if (id !== current) list.push({ path: join(dataDir, directory, 'runs', id), stamp: id.slice(0, 10), what: `run ${directory} ${id}` });
    }
    for (const stamp of await subdirectories(join(dataDir, directory, 'staging'))) {
      // The run being fetched is built here; a build of the served run's time feeds its snapshots.
      if (stamp === keptStamp || current?.slice(0, 10) === stamp) continue;
      list.push({ path: join(dataDir, directory, 'staging', stamp), stamp, what: `build ${directory} ${stamp}` });
    }
  }
  return list.sort((a, b) => a.stamp.localeCompare(b.stamp));
}

/**
 * Brings the data directory under `maxBytes` by removing the oldest of what may go; throws a
 * DataCapError (after logging it) when what must stay is over the cap. Answers the bytes held after.
 */
export async function enforceDataCap(p: { dataDir: string; maxBytes: number; log: SourceLogger; keep: { source: string; refTime: number } }): Promise<number> {
  let total = await treeBytes(p.dataDir);
  if (total <= p.maxBytes) return total;
  for (const item of await removables(p.dataDir, p.keep)) {
    const bytes = await treeBytes(item.path);
    await rm(item.path, { recursive: true, force: true });
    total -= bytes;
    p.log.info({ removed: item.what, bytes, total, maxBytes: p.maxBytes }, 'data directory over ISOBAR_DATA_MAX_GB: pruned');
    if (total <= p.maxBytes) return total;
  }
  const gb = (n: number) => (n / GB).toFixed(2);
  const message = `The data directory holds ${gb(total)} GB, over ISOBAR_DATA_MAX_GB (${gb(p.maxBytes)} GB), with only the served runs and this download left: the download of ${p.keep.source} ${runParts(p.keep.refTime).yyyymmddhh} stops`;
  p.log.warn({ source: p.keep.source, total, maxBytes: p.maxBytes }, message);
  throw new DataCapError(message);
}
