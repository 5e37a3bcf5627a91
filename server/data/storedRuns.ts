/**
 * Published runs in the data directory (server/ingest/layout.ts), as the routes read them: the
 * current run of each product directory, its minifest, its tiles (stored, or rendered from the
 * native-grid store on first request and kept), and its point-series store.
 *
 * Tiles are rendered on the tile threads (tilePool.ts; storedTileRender.ts) when StoredRuns is
 * given the pool, as in the server, else in this thread. Tiles read or rendered are kept in memory (an LRU by bytes shared by every run, as ServedTile:
 * their gzip bytes, and their inflated bytes once a client without gzip asked), so a tile asked
 * again is neither read from disk nor inflated again.
 *
 * current.json is looked at again at most every POINTER_TTL_MS, so a newly published run is served
 * within that time without a restart (at once after invalidate(), which the live-source scheduler
 * calls when it publishes a run); a run that is pruned while a request reads it answers 404.
 *
 * Everything is read through an ObjectStore (server/storage/objectStore.ts): the data directory by
 * default, or a remote store (S3). From a remote store, point stores are read by ranges through a
 * small block cache (server/storage/rangeReader.ts), and a tile above the pre-rendered zooms is
 * rendered from a native field downloaded once into a local cache directory
 * ({dataDir}/.storage-cache/{directory}/{id}/, removed when the run is forgotten), where the render
 * leaves the tile too; a tile kept in memory costs no call to the store.
 */

import type { MinifestAnswer } from '../../common/api/products.ts';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { METRICS } from '../../common/catalogue/metrics.ts';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import type { TileAddress } from '../../common/tiling.ts';
import type { Engine } from '../../engine/engine.ts';
import {
  currentPointerKey, listRunIds, nativeRelPath, readCurrentRunId, readRunManifest, runDir, runKey, tileRelPath, writeFileAtomic, type RunManifest,
} from '../ingest/layout.ts';
import { PointStoreReader } from '../ingest/points.ts';
import { tileCache } from '../ops/metrics.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { notFoundError, type ObjectStore } from '../storage/objectStore.ts';
import { ObjectRangeSource } from '../storage/rangeReader.ts';
import { ByteLru } from './byteLru.ts';
import { ServedTile } from './servedTile.ts';
import { NativeFields, renderStoredTile } from './storedTileRender.ts';
import type { TilePool } from './tilePool.ts';

/** How long the current-run pointer of a directory is trusted before it is read again. */
const POINTER_TTL_MS = 1000;
/** Default memory budget of the stored-tile cache, bytes (gzip data, and identity data once asked for). */
const DEFAULT_STORED_TILE_CACHE_BYTES = 128 * 1024 * 1024;
/** Where runs read from a remote store keep the native fields they render from, under the data directory. */
const STORAGE_CACHE_DIR = '.storage-cache';

/** Where a run renders the tiles it has not stored, and what it keeps. */
interface RunContext {
  store: ObjectStore;
  /** Where a run of a remote store keeps its native fields and rendered tiles: {cacheRoot}/{directory}/runs/{id}. */
  cacheRoot: string;
  /** Tiles kept in memory, shared with the other runs (keys are file paths). */
  tiles: ByteLru<ServedTile>;
  /** The tile threads; null: render in this thread with `engine`. */
  pool: TilePool | null;
  engine: () => Promise<Engine | null>;
  /** Native fields for rendering in this thread. */
  natives: NativeFields;
}

/** One published run. */
export class StoredRun {
  private points: Promise<PointStoreReader> | null = null;
  private minifestText: Promise<string> | null = null;
  private levelPoints: Promise<PointStoreReader> | null = null;
  private readonly inFlight = new Map<string, Promise<ServedTile>>();
  private readonly natives = new Map<string, Promise<boolean>>();
  private readonly tiles: ByteLru<ServedTile>;
  /** The run's files on this machine: its directory in the data directory, or its local cache of a remote store's run. */
  readonly dir: string;
  /** The run's key prefix, and where its tiles and native fields are (a snapshot in object storage shares its build's). */
  private readonly key: string;
  private readonly objects: string;
  /** Whether the store is remote: native fields are downloaded to `dir` to render from. */
  private readonly remote: boolean;

  constructor(readonly manifest: RunManifest, private readonly context: RunContext) {
    const { store, cacheRoot } = context;
    this.remote = store.localRoot === null;
    this.dir = runDir(store.localRoot ?? cacheRoot, manifest.directory, manifest.id);
    this.key = runKey(manifest.directory, manifest.id);
    this.objects = manifest.objects ?? this.key;
    this.tiles = context.tiles;
  }

  get refTime(): number {
    return this.manifest.refTime;
  }

  /** An object of the store; a missing one throws as a missing file does (code ENOENT). */
  private async object(key: string): Promise<Buffer> {
    const bytes = await this.context.store.get(key);
    if (!bytes) throw notFoundError(key);
    return bytes;
  }

  /** The run's minifest.json: a published run never changes, so it is read once (a failed read is tried again). */
  async minifest(): Promise<MinifestAnswer> {
    this.minifestText ??= this.object(`${this.key}minifest.json`).then((bytes) => bytes.toString('utf8')).catch((error: unknown) => {
      this.minifestText = null;
      throw error;
    });
    // Parsed for each caller: an answer of its own, which nothing else shares.
    return JSON.parse(await this.minifestText) as MinifestAnswer;
  }

  /** A point store of the run: a local file, or a remote object read by ranges. */
  private openStore(file: string): Promise<PointStoreReader> {
    return this.remote
      ? PointStoreReader.from(new ObjectRangeSource(this.context.store, `${this.key}${file}`))
      : PointStoreReader.open(join(this.dir, file));
  }

  pointStore(): Promise<PointStoreReader> | null {
    if (!this.manifest.points) return null;
    this.points ??= this.openStore(this.manifest.points.file).catch((error: unknown) => {
      this.points = null;
      throw error;
    });
    return this.points;
  }

  /** The pressure-level series (levels.bin); null for runs without one (no levels, or published before it existed). */
  levelStore(): Promise<PointStoreReader> | null {
    if (!this.manifest.levelPoints) return null;
    this.levelPoints ??= this.openStore(this.manifest.levelPoints.file).catch((error: unknown) => {
      this.levelPoints = null;
      throw error;
    });
    return this.levelPoints;
  }

  async close(): Promise<void> {
    this.tiles.deletePrefix(this.dir + sep);
    const stores = [this.points, this.levelPoints];
    this.points = null;
    this.levelPoints = null;
    for (const store of stores) if (store) await (await store.catch(() => null))?.close();
    if (this.remote) await rm(this.dir, { recursive: true, force: true });
  }

  /**
   * A tile of the run: kept in memory, else stored, else rendered from the native store now (and
   * stored for the next time); then kept. Null: no data.
   */
  async tile(validTime: number, address: TileAddress, file: string, level: string): Promise<ServedTile | null> {
    const rel = tileRelPath(validTime, address.z, address.x, address.y, file, level);
    const path = join(this.dir, rel);
    const kept = this.tiles.get(path);
    tileCache.inc({ cache: 'stored', result: kept ? 'hit' : 'miss' });
    if (kept) return kept;
    let job = this.inFlight.get(rel);
    if (!job) {
      job = this.storedTile(rel, path).then((stored) => stored ?? this.render(validTime, address, file, level))
        .then((gz) => {
          // No stored tile and no native field: no data (ENOENT as for a pruned run).
          if (!gz) throw Object.assign(new Error(`No data for ${rel}`), { code: 'ENOENT' });
          const tile = ServedTile.fromGzip(gz);
          // Inflated bytes made later for a client without gzip count against the budget too.
          tile.onIdentity = (bytes) => this.tiles.grow(path, bytes);
          this.tiles.set(path, tile, tile.bytes);
          return tile;
        })
        .finally(() => this.inFlight.delete(rel));
      this.inFlight.set(rel, job);
    }
    return job.catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
  }

  /** The stored tile, or null. A remote run's tile rendered here before is in its local cache: no GET, no render again. */
  private async storedTile(rel: string, path: string): Promise<Buffer | null> {
    const here = this.remote ? await readFile(path).catch(() => null) : null;
    return here ?? this.context.store.get(`${this.objects}${rel}`);
  }

  /** Renders a tile from the native store (and stores it); null when the run has none for it. */
  private async render(validTime: number, address: TileAddress, file: string, level: string): Promise<Buffer | null> {
    if (this.remote && !(await this.fetchNative(validTime, file, level))) return null;
    const task = { kind: 'stored' as const, runDir: this.dir, validTime, address, file, level };
    const { pool, engine, natives } = this.context;
    return pool ? pool.stored(task) : renderStoredTile(task, natives, await engine());
  }

  /** Downloads a native field of a remote run into `dir` once; false when the run has none (or is pruned). */
  private fetchNative(validTime: number, file: string, level: string): Promise<boolean> {
    const rel = nativeRelPath(validTime, file, level);
    let job = this.natives.get(rel);
    if (!job) {
      job = this.context.store.get(`${this.objects}${rel}`).then(async (gz) => {
        if (!gz) return false;
        const path = join(this.dir, rel);
        await mkdir(dirname(path), { recursive: true });
        await writeFileAtomic(path, gz);
        return true;
      });
      // A missing or failed download is tried again by the next request.
      job.then((found) => found || this.natives.delete(rel), () => this.natives.delete(rel));
      this.natives.set(rel, job);
    }
    return job;
  }
}

interface DirectoryState {
  checkedAt: number;
  /** The pointer's ObjectInfo.version when it was read ('' when there was none); null: read it again. */
  pointerVersion: string | null;
  current: StoredRun | null;
  runs: Map<string, StoredRun>;
}

/** Every product directory's published runs, read lazily and kept while they are current or one before. */
export class StoredRuns {
  private readonly directories = new Map<string, DirectoryState>();
  private readonly loading = new Map<string, { job: Promise<DirectoryState>; generation: number }>();
  private enginePromise: Promise<Engine | null> | null = null;
  /** Bumped by invalidate(): a load that began before it must not be trusted for the TTL. */
  private generation = 0;
  /** Tiles of every run kept in memory, by file path. */
  private readonly tiles: ByteLru<ServedTile>;
  private readonly context: RunContext;

  private readonly store: ObjectStore;

  /**
   * `loadEngine` serves rendering in this thread, without `options.pool`; `options.tileCacheBytes`
   * bounds the tiles kept in memory (default DEFAULT_STORED_TILE_CACHE_BYTES); `options.storage`:
   * where the runs are (default the data directory itself).
   */
  constructor(
    readonly dataDir: string,
    private readonly loadEngine: () => Promise<Engine>,
    private readonly clock: () => number = Date.now,
    options: { tileCacheBytes?: number; pool?: TilePool; storage?: ObjectStore } = {},
  ) {
    this.store = options.storage ?? new LocalDirectoryStore(dataDir);
    this.tiles = new ByteLru(options.tileCacheBytes ?? DEFAULT_STORED_TILE_CACHE_BYTES);
    this.context = {
      store: this.store, cacheRoot: join(dataDir, STORAGE_CACHE_DIR), tiles: this.tiles, pool: options.pool ?? null,
      engine: () => this.engine(), natives: new NativeFields(),
    };
  }

  /** Which of `directories` have a published run (a current pointer) in the store, in their order. */
  async publishedDirectories(directories: readonly string[]): Promise<string[]> {
    const found = await Promise.all(directories.map((d) => this.store.head(currentPointerKey(d)).then((info) => info !== null, () => false)));
    return directories.filter((_, i) => found[i]);
  }

  /** Tiles kept in memory and their bytes. */
  tileCacheStats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.tiles.size, bytes: this.tiles.bytes, maxBytes: this.tiles.maxBytes };
  }

  private engine(): Promise<Engine | null> {
    this.enginePromise ??= this.loadEngine().catch(() => null);
    return this.enginePromise;
  }

  private async refresh(directory: string): Promise<DirectoryState> {
    const now = this.clock();
    const cached = this.directories.get(directory);
    if (cached && now - cached.checkedAt < POINTER_TTL_MS) return cached;
    const pending = this.loading.get(directory);
    // A load begun before invalidate() may have read the old pointer: start another.
    if (pending && pending.generation === this.generation) return pending.job;
    const job = this.load(directory, cached, now).finally(() => {
      if (this.loading.get(directory)?.job === job) this.loading.delete(directory);
    });
    this.loading.set(directory, { job, generation: this.generation });
    return job;
  }

  private async load(directory: string, cached: DirectoryState | undefined, now: number): Promise<DirectoryState> {
    const generation = this.generation;
    const version = (await this.store.head(currentPointerKey(directory)))?.version ?? '';
    if (cached && cached.pointerVersion === version) {
      cached.checkedAt = generation === this.generation ? now : -Infinity;
      return cached;
    }
    const state: DirectoryState = { checkedAt: now, pointerVersion: version, current: null, runs: cached?.runs ?? new Map() };
    const id = version ? await readCurrentRunId(this.store, directory) : null;
    if (id) state.current = await this.runById(state, directory, id);
    // Forget runs that are gone from disk (pruned).
    const onDisk = new Set(await listRunIds(this.store, directory));
    for (const [runId, run] of state.runs) {
      if (!onDisk.has(runId)) {
        state.runs.delete(runId);
        void run.close();
      }
    }
    if (generation !== this.generation) {
      // Invalidated while reading: answer with what was read, but read again next time.
      state.checkedAt = -Infinity;
      state.pointerVersion = null;
    }
    this.directories.set(directory, state);
    return state;
  }

  /**
   * Makes the next request of a directory (every directory when none is named) read current.json
   * again, whatever its age and modification time: a run was just published.
   */
  invalidate(directory?: string): void {
    this.generation++;
    for (const [name, state] of this.directories) {
      if (directory !== undefined && name !== directory) continue;
      state.checkedAt = -Infinity;
      state.pointerVersion = null;
    }
  }

  private async runById(state: DirectoryState, directory: string, id: string): Promise<StoredRun | null> {
    const known = state.runs.get(id);
    if (known) return known;
    const manifest = await readRunManifest(this.store, directory, id);
    if (!manifest) return null;
    const run = new StoredRun(manifest, this.context);
    state.runs.set(id, run);
    return run;
  }

  /** The run current.json names, or null when the directory has none. */
  async current(directory: string): Promise<StoredRun | null> {
    return (await this.refresh(directory)).current;
  }

  /** A kept run of the directory with this reference time (the newest such), or null. */
  async byRefTime(directory: string, refTime: number): Promise<StoredRun | null> {
    const state = await this.refresh(directory);
    if (state.current?.refTime === refTime) return state.current;
    // A run already read answers without listing the store (a request to S3 each time otherwise).
    const known = [...state.runs.entries()].filter(([, run]) => run.refTime === refTime).sort(([a], [b]) => (a < b ? 1 : -1))[0];
    if (known) return known[1];
    for (const id of await listRunIds(this.store, directory)) {
      const run = await this.runById(state, directory, id);
      if (run?.refTime === refTime) return run;
    }
    return null;
  }

  /** Closes the point stores. */
  async close(): Promise<void> {
    for (const state of this.directories.values()) for (const run of state.runs.values()) await run.close();
    this.directories.clear();
  }
}

/** Base unit per point variable (the header's units), wind keyed once for wind_u and wind_v. */
export function pointUnits(idents: readonly string[]): Record<string, string> {
  const units: Record<string, string> = {};
  for (const ident of idents) {
    const v = VARIABLES[ident];
    if (v) units[ident.replace(/_[uv]$/, '')] = METRICS[v.metric].base;
  }
  return units;
}
