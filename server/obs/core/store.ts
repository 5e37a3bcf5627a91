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
 *
 * With a remote object store (server/storage, ISOBAR_STORAGE_URL) the same calls go to objects
 * obs/{kind}/{path}: an item is still written into a local staging folder, then uploaded file by
 * file (the files of an item of the same name that the new one lacks are deleted after), a
 * document is one PUT; the same order (items first, manifest last) keeps readers whole.
 */

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { MINUTE_MS } from '../../../common/time.ts';
import { writeFileAtomic } from '../../ingest/layout.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import type { ObsKind } from './source.ts';

/** How long after a manifest stops listing an item its files may still be asked for (clients' cache). */
export const REMOVE_GRACE_MS = 5 * MINUTE_MS;

/** Item and document paths: slash-separated segments of letters, digits, `_`, `-` and `.`, no `..`. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function isSafeObsPath(path: string): boolean {
  const segments = path.split('/');
  return segments.length > 0 && segments.every((s) => SEGMENT.test(s) && s !== '.' && !s.includes('..'));
}

/** A published file as the route sends it. */
export interface ObsFile {
  size: number;
  /** Last write, ms since 1970. */
  modified: number;
  body(): Readable;
}

export class ObsStore {
  readonly root: string;
  /** The remote store the products go to; null: the data directory (root). */
  readonly remote: ObjectStore | null;

  /** `storage`: where products are published (server/storage); a local one, or none, is the data directory. */
  constructor(dataDir: string, storage?: ObjectStore | null) {
    this.root = resolve(dataDir, 'obs');
    this.remote = storage?.localRoot === null ? storage : null;
  }

  /** The object key of `path` in `kind` (checked as path() checks it). */
  private key(kind: ObsKind, path: string): string {
    this.path(kind, path);
    return `obs/${kind}/${path}`;
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
      if (this.remote) return await this.upload(kind, path, staging);
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

  /** Uploads an item folder written in `staging`, then deletes the files an item of that name had that it has not. */
  private async upload(kind: ObsKind, path: string, staging: string): Promise<void> {
    const remote = this.remote!;
    const prefix = `${this.key(kind, path)}/`;
    const files = (await readdir(staging, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
      .map((e) => relative(staging, join(e.parentPath, e.name)).split(sep).join('/'));
    const before = await remote.listAll(prefix);
    for (const rel of files) await remote.putFile(prefix + rel, join(staging, rel));
    const kept = new Set(files);
    await remote.delete(before.filter((rel) => !kept.has(rel)).map((rel) => prefix + rel));
    await rm(staging, { recursive: true, force: true });
  }

  /** Writes a JSON document atomically (a temporary file renamed over the old one). */
  async writeJson(kind: ObsKind, path: string, value: unknown): Promise<void> {
    await this.writeFile(kind, path, `${JSON.stringify(value)}\n`);
  }

  /** Writes a file atomically. */
  async writeFile(kind: ObsKind, path: string, data: string | Uint8Array): Promise<void> {
    if (this.remote) return this.remote.put(this.key(kind, path), data);
    const target = this.path(kind, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, data);
  }

  /** A JSON document, or null when there is none. A document that does not parse throws. */
  async readJson<T>(kind: ObsKind, path: string): Promise<T | null> {
    const text = await this.readText(kind, path);
    return text === null ? null : JSON.parse(text) as T;
  }

  /** A text file (utf-8), or null when there is none. */
  async readText(kind: ObsKind, path: string): Promise<string | null> {
    if (this.remote) return (await this.remote.get(this.key(kind, path)))?.toString('utf8') ?? null;
    try {
      return await readFile(this.path(kind, path), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Names in a folder of `kind` ('' for its top), sorted; none when it does not exist. */
  async list(kind: ObsKind, path = ''): Promise<string[]> {
    if (this.remote) return (await this.remote.list(path === '' ? `obs/${kind}/` : `${this.key(kind, path)}/`)).filter((name) => !name.startsWith('.'));
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
    if (this.remote) {
      const key = this.key(kind, path);
      await this.remote.deletePrefix(`${key}/`);
      return this.remote.delete([key]);
    }
    await rm(this.path(kind, path), { recursive: true, force: true });
  }

  /** A published file (not a folder): its size, time and bytes; null when there is none. */
  async file(kind: ObsKind, path: string): Promise<ObsFile | null> {
    if (this.remote) {
      const key = this.key(kind, path);
      const [info, bytes] = await Promise.all([this.remote.head(key), this.remote.get(key)]);
      return info && bytes ? { size: bytes.length, modified: info.modified, body: () => Readable.from([bytes]) } : null;
    }
    const file = this.path(kind, path);
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? { size: info.size, modified: info.mtimeMs, body: () => createReadStream(file) } : null;
  }

  /** When a published file was last written (ms since 1970), or null when there is none. */
  async modified(kind: ObsKind, path: string): Promise<number | null> {
    if (this.remote) return (await this.remote.head(this.key(kind, path)))?.modified ?? null;
    const info = await stat(this.path(kind, path)).catch(() => null);
    return info?.isFile() ? info.mtimeMs : null;
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
