/**
 * Where published data lives (DESIGN.md "When one machine is not enough"): one small interface over
 * a store of immutable objects named by '/'-separated keys, with two adapters, the local data
 * directory (localDirectory.ts: today's files) and S3 or any S3-compatible store (s3Store.ts).
 * storageFromEnv (fromEnv.ts) picks one. Model runs (server/ingest/layout.ts, runPublication.ts)
 * and the serving side (server/data/storedRuns.ts) go through it.
 *
 * Atomicity is the caller's: a put replaces one object whole (readers see the old or the new), and
 * a publication writes its objects first and the one small pointer naming them last.
 */

/** What head() answers about an object. */
export interface ObjectInfo {
  size: number;
  /** Changes whenever the object is written again (an ETag, or the file's mtime and size). */
  version: string;
  /** Last write, ms since 1970. */
  modified: number;
}

export interface ObjectStore {
  /** Where the store is, for logs (never credentials). */
  readonly description: string;
  /** The directory whose files the objects are, for a local store; null for a remote one. */
  readonly localRoot: string | null;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** `length` bytes from `start` (fewer at the object's end), or null when there is no object. */
  getRange(key: string, start: number, length: number): Promise<Buffer | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Writes an object whole: readers see the old content or the new. */
  put(key: string, data: string | Uint8Array): Promise<void>;
  /** Writes an object from a local file (streamed: a point store is gigabytes). */
  putFile(key: string, path: string): Promise<void>;
  /** Names directly under `prefix` (which ends in '/'): objects and sub-prefixes, without the trailing '/'; sorted. */
  list(prefix: string): Promise<string[]>;
  /** Every object whose key starts with `prefix` (which ends in '/'), as keys relative to it, at any depth; sorted. */
  listAll(prefix: string): Promise<string[]>;
  /** Removes every object whose key starts with `prefix` (which ends in '/'). */
  deletePrefix(prefix: string): Promise<void>;
  /** Removes objects (missing ones are no error). */
  delete(keys: string[]): Promise<void>;
  /** Lets go of connections, where the store holds any. */
  close?(): void;
}

/** Key segments: letters, digits, `_`, `-`, `.` (no `..`), as the data directory's names are. */
const KEY_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** Throws unless `key` is a relative '/'-separated key (a prefix may end in '/'); the edge check of every adapter. */
export function checkKey(key: string, prefix = false): string {
  const segments = (prefix && key.endsWith('/') ? key.slice(0, -1) : key).split('/');
  if (key === '' || !segments.every((s) => KEY_SEGMENT.test(s) && !s.includes('..'))) {
    throw new Error(`Not a valid object ${prefix ? 'prefix' : 'key'}: ${JSON.stringify(key)}`);
  }
  return key;
}

/** An error as a missing file gives (code ENOENT), for callers that treat both alike. */
export function notFoundError(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`No object ${key}`), { code: 'ENOENT' });
}
