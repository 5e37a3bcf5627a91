/**
 * The server's database behind one small async interface (DESIGN.md "Data flow" 2: a SQLite file by
 * default, PostgreSQL when DATABASE_URL is set). Account code writes portable SQL with `?`
 * placeholders; each adapter runs it in its dialect:
 *
 *   sqlite    better-sqlite3 (synchronous; calls are queued so a transaction owns the connection
 *             until it ends); file ISOBAR_DB_PATH, default var/isobar.sqlite
 *   postgres  node-postgres pool; `?` becomes `$1, $2, ...`; BIGINT comes back as a number
 *
 * What both dialects accept and the code relies on: TEXT, INTEGER, BIGINT (ms since the epoch fit
 * in 2^53), INSERT ... ON CONFLICT (...) DO UPDATE ... WHERE, RETURNING (SQLite >= 3.35).
 *
 * The schema is made by server/db/migrations.ts, applied by `migrate()` when the database opens.
 * Every statement of the account code lives in a store beside this file, one per group of tables,
 * that routes and services call: userStore (users, sessions), userDataStore (settings and
 * collections), deviceStore, notificationStore, alertStore (alert evaluations).
 */

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | bigint | null | Buffer;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/** What a query can do, in or out of a transaction. */
export interface Queryable {
  readonly dialect: Dialect;
  /** Every row the statement returns (SELECT, or a write with RETURNING). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** A write without returned rows. */
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. The
   * work must use the `tx` it is given (the SQLite adapter queues every other call until the end).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | {
    kind: 'postgres';
    url: string;
    /** Schema to work in (tests give each case its own); default the server's search_path. */
    schema?: string;
    /** Pool size (default 10). */
    max?: number;
  };

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_SQLITE_PATH = resolve(REPO_ROOT, 'var', 'isobar.sqlite');

/** DATABASE_URL (postgres:// or postgresql://) wins; else the SQLite file ISOBAR_DB_PATH (default var/isobar.sqlite). */
export function databaseConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
    return { kind: 'postgres', url };
  }
  return { kind: 'sqlite', path: resolve(env.ISOBAR_DB_PATH?.trim() || DEFAULT_SQLITE_PATH) };
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  let db: Database;
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    const { openSqlite } = await import('./sqlite.ts');
    db = openSqlite(config.path);
  } else {
    const { openPostgres } = await import('./postgres.ts');
    db = await openPostgres(config);
  }
  try {
    const { migrate } = await import('./migrations.ts');
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * A database opened on first use (so a server that never sees an account request, as most tests,
 * opens no file), then kept. A failed open is retried by the next call.
 */
export function lazyDatabase(open: () => Promise<Database>): Database & { readonly opened: boolean; ready(): Promise<Database> } {
  let pending: Promise<Database> | null = null;
  let opened: Database | null = null;
  let closed = false;
  const ready = (): Promise<Database> => {
    if (closed) return Promise.reject(new Error('The database is closed'));
    pending ??= open().then((db) => {
      opened = db;
      return db;
    }, (error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
  return {
    get dialect(): Dialect {
      if (!opened) throw new Error('The database is not open yet');
      return opened.dialect;
    },
    get opened() {
      return opened !== null;
    },
    ready,
    all: async (sql, params) => (await ready()).all(sql, params),
    get: async (sql, params) => (await ready()).get(sql, params),
    run: async (sql, params) => (await ready()).run(sql, params),
    exec: async (sql) => (await ready()).exec(sql),
    transaction: async (work) => (await ready()).transaction(work),
    async close() {
      closed = true;
      const db = pending ? await pending.catch(() => null) : null;
      await db?.close();
    },
  } as Database & { readonly opened: boolean; ready(): Promise<Database> };
}
