/**
 * The local data directory as an ObjectStore (objectStore.ts): an object is the file at
 * {root}/{key}, written to a temporary file and renamed into place so readers see the old content
 * or the new. The single-machine default; model runs keep their own rename-based publication on it
 * (server/ingest/layout.ts), so this adapter serves the reads and the small writes.
 */

import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { checkKey, type ObjectInfo, type ObjectStore } from './objectStore.ts';

/** Writes a file so that readers see the old content or the new, never a part: temporary file, then rename. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await replaceWith(path, (temporary) => writeFile(temporary, data));
}

/** Writes `path` through a temporary file beside it that `write` fills, then renames it over. */
async function replaceWith(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class LocalDirectoryStore implements ObjectStore {
  readonly localRoot: string;
  readonly description: string;

  constructor(root: string) {
    this.localRoot = resolve(root);
    this.description = `directory ${this.localRoot}`;
  }

  private path(key: string, prefix = false): string {
    return join(this.localRoot, checkKey(key, prefix));
  }

  async get(key: string): Promise<Buffer | null> {
    return readFile(this.path(key)).catch((error: unknown) => {
      if (missing(error)) return null;
      throw error;
    });
  }

  async getRange(key: string, start: number, length: number): Promise<Buffer | null> {
    const file = await open(this.path(key), 'r').catch((error: unknown) => {
      if (missing(error)) return null;
      throw error;
    });
    if (!file) return null;
    try {
      const out = Buffer.alloc(length);
      const { bytesRead } = await file.read(out, 0, length, start);
      return out.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const info = await stat(this.path(key)).catch((error: unknown) => {
      if (missing(error)) return null;
      throw error;
    });
    return info?.isFile() ? { size: info.size, version: `${info.mtimeMs}:${info.size}`, modified: info.mtimeMs } : null;
  }

  async put(key: string, data: string | Uint8Array): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, data);
  }

  async putFile(key: string, source: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    await replaceWith(path, (temporary) => copyFile(source, temporary));
  }

  async list(prefix: string): Promise<string[]> {
    const names = await readdir(this.path(prefix, true)).catch((error: unknown) => {
      if (missing(error)) return [] as string[];
      throw error;
    });
    return names.sort();
  }

  async listAll(prefix: string): Promise<string[]> {
    const dir = this.path(prefix, true);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
      if (missing(error)) return [];
      throw error;
    });
    return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/')).sort();
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix, true), { recursive: true, force: true });
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) await rm(this.path(key), { force: true });
  }
}
