/**
 * Atomic publication of observation products under `{dataDir}/obs/{kind}/`, which the route
 * `/obs/v1.0/{kind}/...` serves (routes.ts). Nothing half-written is ever served:
 *   - an item (a radar frame's tiles, a satellite scene) is written into a staging folder and renamed
 *     into place whole (publishDir); an item of the same name is replaced by a rename too;
 *   - a JSON document (a manifest, a storm list, the active alerts) is written to a temporary file and
 *     renamed over the old one (writeJson): readers see the old file or the new, never a part.
 * Publish items first and the manifest that lists them last; remove an item only after a manifest
 * that no longer lists it is written, and a while after (readers may hold the old manifest: see
 * REMOVE_GRACE_MS).
 */

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { MINUTE_MS } from '../../../common/time.ts';
import { writeFileAtomic } from '../../ingest/layout.ts';
import type { ObsKind } from './source.ts';

/** How long after a manifest stops listing an item its files may still be asked for (clients' cache). */
export const REMOVE_GRACE_MS = 5 * MINUTE_MS;

/** Item and document paths: slash-separated segments of letters, digits, `_`, `-` and `.`, no `..`. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function isSafeObsPath(path: string): boolean {
  const segments = path.split('/');
  return segments.length > 0 && segments.every((s) => SEGMENT.test(s) && s !== '.' && !s.includes('..'));
}

export class ObsStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = resolve(dataDir, 'obs');
  }

  /** The file or folder of `path` in `kind`; throws on a path that could leave the folder. */
  path(kind: ObsKind, path: string): string {
    if (!isSafeObsPath(path)) throw new Error(`Not a valid observation path: ${JSON.stringify(path)}`);
    const full = resolve(this.root, kind, path);
    const base = resolve(this.root, kind);
    if (relative(base, full).startsWith('..') || !full.startsWith(base + sep)) throw new Error(`Path outside ${kind}: ${path}`);
    return full;
  }

  /**
   * Writes an item folder: `write` fills an empty staging folder, which is then renamed to `path`
   * (replacing an item of that name). A `write` that throws leaves nothing behind.
   */
  async publishDir(kind: ObsKind, path: string, write: (dir: string) => Promise<void>): Promise<void> {
    const target = this.path(kind, path);
    const staging = join(this.root, '.staging', `${kind}-${process.pid}-${randomBytes(6).toString('hex')}`);
    await mkdir(staging, { recursive: true });
    try {
      await write(staging);
      await mkdir(dirname(target), { recursive: true });
      const old = await exists(target) ? `${staging}.old` : null;
      if (old) await rename(target, old);
      await rename(staging, target);
      if (old) await rm(old, { recursive: true, force: true });
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
  }

  /** Writes a JSON document atomically (a temporary file renamed over the old one). */
  async writeJson(kind: ObsKind, path: string, value: unknown): Promise<void> {
    await this.writeFile(kind, path, `${JSON.stringify(value)}\n`);
  }

  /** Writes a file atomically. */
  async writeFile(kind: ObsKind, path: string, data: string | Uint8Array): Promise<void> {
    const target = this.path(kind, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, data);
  }

  /** A JSON document, or null when there is none. A document that does not parse throws. */
  async readJson<T>(kind: ObsKind, path: string): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.path(kind, path), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Names in a folder of `kind` ('' for its top), sorted; none when it does not exist. */
  async list(kind: ObsKind, path = ''): Promise<string[]> {
    const dir = path === '' ? resolve(this.root, kind) : this.path(kind, path);
    try {
      return (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Removes an item or document (nothing when it is not there). */
  async remove(kind: ObsKind, path: string): Promise<void> {
    await rm(this.path(kind, path), { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
