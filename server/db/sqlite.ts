/**
 * SQLite through better-sqlite3 12 (13 needs Node 22: on Node 20 it crashes).
 *
 * Durability: an acknowledged write is on the disk. journal_mode WAL with synchronous NORMAL, and
 * every call that wrote resolves only after an fsync of the WAL file that started after its commit
 * (group commit). Why not synchronous FULL, which fsyncs the WAL inside every COMMIT: better-sqlite3
 * is synchronous, so that fsync (1-4 ms on this kind of disk) would stall the whole event loop once
 * per write; here the fsync runs on libuv's thread pool (fs.fsync), the loop keeps serving, and one
 * fsync covers every commit made before it started. The guarantees are FULL's: NORMAL in WAL mode
 * never corrupts the database (SQLite docs, "PRAGMA synchronous"); what it may lose on power loss are
 * commits whose WAL frames were not yet synced, and no write is answered before they are. Process
 * crashes (SIGKILL) lose nothing either way: a commit is in the OS page cache
 * (server/routes/usersDurability.test.ts). Checkpoints (every ~1000 WAL pages) sync the WAL and
 * the database file themselves.
 *
 * better-sqlite3 is synchronous, so a statement never interleaves with another; but a transaction
 * spans awaits, and any call made meanwhile would run inside it. Every call therefore takes its
 * turn in one queue, and a transaction holds the queue until it commits or rolls back. The fsync
 * that makes a call durable happens after its turn: the next call does not wait for it.
 */

import { open, type FileHandle } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import type { Database, Queryable, RunResult, SqlValue } from './database.ts';

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

/** Wait for a lock held by another process (another server on the same file) this long, ms. */
const BUSY_TIMEOUT_MS = 5000;
/** Prepared statements kept per connection (the account code has a few dozen). */
const STATEMENT_CACHE_MAX = 500;

export interface SqliteOptions {
  /** Makes the WAL file durable (tests count the calls); default fsync through a file handle. */
  syncWal?: () => Promise<void>;
}

export function openSqlite(path: string, options: SqliteOptions = {}): Database {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);

  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: readonly SqlValue[] | undefined) => (params ?? []) as unknown[];

  // ---- group commit ----------------------------------------------------------------------------
  /** Statements run that may have written; a call that moved it waits for an fsync. */
  let writes = 0;
  let wal: Promise<FileHandle> | null = null;
  const fsyncWal = options.syncWal ?? (async () => {
    if (path === ':memory:') return;
    wal ??= open(`${path}-wal`, 'r+');
    try {
      await (await wal).sync();
    } catch (error) {
      wal = null; // opened again next time (the file may have been recreated)
      throw error;
    }
  });
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const startSync = (): Promise<void> => {
    const sync = fsyncWal().finally(() => {
      if (running === sync) running = null;
    });
    running = sync;
    return sync;
  };
  /** Resolves once an fsync that started after this call has finished (one fsync serves many callers). */
  const durable = (): Promise<void> => {
    if (!running) return startSync();
    // The running fsync may have started before our commit: wait for the one after it.
    next ??= running.catch(() => undefined).then(() => {
      next = null;
      return startSync();
    });
    return next;
  };

  const direct: Queryable = {
    dialect: 'sqlite',
    async all<T>(sql: string, params?: readonly SqlValue[]) {
      const statement = prepare(sql);
      if (!statement.readonly) writes += 1;
      if (!statement.reader) {
        statement.run(...bind(params));
        return [] as T[];
      }
      return statement.all(...bind(params)) as T[];
    },
    async get<T>(sql: string, params?: readonly SqlValue[]) {
      const statement = prepare(sql);
      if (!statement.readonly) writes += 1;
      if (!statement.reader) {
        statement.run(...bind(params));
        return undefined;
      }
      return statement.get(...bind(params)) as T | undefined;
    },
    async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
      const statement = prepare(sql);
      if (!statement.readonly) writes += 1;
      // A write with RETURNING is a reader: all() runs it to the end.
      if (statement.reader) return { changes: statement.all(...bind(params)).length };
      return { changes: statement.run(...bind(params)).changes };
    },
    async exec(sql: string) {
      writes += 1;
      db.exec(sql);
    },
  };

  // The queue: each call starts when the previous one has settled.
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;
  const queued = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('The database is closed'));
    const result = tail.then(async () => {
      const before = writes;
      const value = await work();
      return { value, wrote: writes !== before };
    });
    tail = result.catch(() => undefined);
    return result.then(async ({ value, wrote }) => {
      if (wrote) await durable();
      return value;
    });
  };

  return {
    dialect: 'sqlite',
    all: (sql, params) => queued(() => direct.all(sql, params)),
    get: (sql, params) => queued(() => direct.get(sql, params)),
    run: (sql, params) => queued(() => direct.run(sql, params)),
    exec: (sql) => queued(() => direct.exec(sql)),
    transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      return queued(async () => {
        // IMMEDIATE takes the write lock now, so two processes on one file cannot both read and then
        // fail to upgrade (SQLITE_BUSY in the middle of a transaction).
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    async close() {
      if (closed) return;
      await queued(async () => undefined);
      closed = true;
      await Promise.allSettled([running, next]);
      statements.clear();
      db.close();
      if (wal) await (await wal.catch(() => null))?.close();
    },
  } as Database;
}
