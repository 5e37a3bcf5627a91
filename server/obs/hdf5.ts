/**
 * What the satellite, lightning and radar readers share to read HDF5 (netCDF-4 is HDF5) with h5wasm
 * in the ingest: the library, loaded on first use; opening bytes through a temporary file (h5wasm
 * reads files); attributes as plain values.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type h5wasmType from 'h5wasm/node';

export type H5 = typeof h5wasmType;
export type H5File = InstanceType<H5['File']>;

let loaded: Promise<H5> | null = null;

/**
 * h5wasm, ready to open files: imported on first use, as only servers that follow a satellite,
 * lightning or radar source read HDF5 (its import took ~130 ms of every server start).
 */
export function loadH5wasm(): Promise<H5> {
  loaded ??= import('h5wasm/node').then(async ({ default: h5wasm }) => {
    await h5wasm.ready;
    return h5wasm;
  });
  return loaded;
}

/** Attributes of a node as plain values; one-element arrays become their element, bigints numbers. */
export function attrsOf(node: unknown): Record<string, unknown> {
  const attrs = (node as { attrs?: Record<string, { value: unknown }> } | null)?.attrs;
  if (!attrs) return {};
  const out: Record<string, unknown> = {};
  for (const [k, a] of Object.entries(attrs)) {
    let v: unknown;
    try {
      v = a.value;
    } catch {
      continue; // a reference or a type h5wasm does not decode: not used
    }
    if (ArrayBuffer.isView(v) && (v as unknown as ArrayLike<unknown>).length === 1) v = (v as unknown as ArrayLike<unknown>)[0];
    if (Array.isArray(v) && v.length === 1) v = v[0];
    if (typeof v === 'bigint') v = Number(v);
    out[k] = v;
  }
  return out;
}

export function num(value: unknown): number | null {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** The node at `path`, or null when absent (or unreadable). */
export function getNode(file: H5File, path: string): unknown {
  try {
    return file.get(path) ?? null;
  } catch {
    return null;
  }
}

/**
 * Opens `bytes` as HDF5 and runs `read` on it; an unreadable file becomes `makeError(message)`, and
 * any other failure inside `read` (h5wasm's errors on truncated data) too, unless it is already one.
 */
export async function withHdf5<T>(bytes: Uint8Array, makeError: (message: string) => Error, read: (file: H5File) => T): Promise<T> {
  const h5wasm = await loadH5wasm();
  const dir = await mkdtemp(join(tmpdir(), 'isobar-sat-'));
  try {
    const path = join(dir, 'image.h5');
    await writeFile(path, bytes);
    let file: H5File;
    try {
      file = new h5wasm.File(path, 'r');
    } catch (cause) {
      throw makeError(`not a readable HDF5 file: ${(cause as Error).message}`);
    }
    try {
      return read(file);
    } catch (error) {
      const probe = makeError('');
      if (error instanceof (probe.constructor as new (m: string) => Error)) throw error;
      throw makeError(`HDF5 content does not read (truncated or corrupt file): ${(error as Error).message}`);
    } finally {
      file.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
