/**
 * PostgreSQL through node-postgres (npm `pg`), when DATABASE_URL is set. Several server instances
 * may share one database (DESIGN.md "When one machine is not enough"): migrations take an advisory
 * lock, and the account code keeps its invariants with row-level statements (conditional upserts,
 * UPDATE ... RETURNING), never with in-process locks.
 */

import type pg from 'pg';
import type { Database, DatabaseConfig, Queryable, SqlValue } from './database.ts';

/** BIGINT (int8) as a JavaScript number: the columns hold ms timestamps and counters, far below 2^53. */
const INT8_OID = 20;
const parseInt8 = (value: string) => Number(value);
const typesOf = (types: typeof pg.types) => ({
  getTypeParser: ((oid: number, format?: string) => (oid === INT8_OID ? parseInt8 : types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
});

/** `?` placeholders to `$1, $2, ...`, leaving quoted text and identifiers alone. */
export function toPostgresPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  return out;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  const converted = new Map<string, string>();
  const text = (sql: string) => {
    let out = converted.get(sql);
    if (out === undefined) {
      out = toPostgresPlaceholders(sql);
      if (converted.size < 1000) converted.set(sql, out);
    }
    return out;
  };
  return {
    dialect: 'postgres',
    async all<T>(sql: string, params?: readonly SqlValue[]) {
      return (await client.query({ text: text(sql), values: params as unknown[] | undefined })).rows as T[];
    },
    async get<T>(sql: string, params?: readonly SqlValue[]) {
      return (await client.query({ text: text(sql), values: params as unknown[] | undefined })).rows[0] as T | undefined;
    },
    async run(sql: string, params?: readonly SqlValue[]) {
      return { changes: (await client.query({ text: text(sql), values: params as unknown[] | undefined })).rowCount ?? 0 };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export async function openPostgres(config: Extract<DatabaseConfig, { kind: 'postgres' }>): Promise<Database> {
  if (config.schema !== undefined && !IDENTIFIER.test(config.schema)) throw new Error(`Bad schema name ${JSON.stringify(config.schema)}`);
  // Imported here: the server's bundle would otherwise load it at every start, SQLite or not.
  const { default: pgModule } = await import('pg');
  const pool = new pgModule.Pool({
    connectionString: config.url,
    max: config.max ?? 10,
    types: typesOf(pgModule.types),
    options: config.schema ? `-c search_path=${config.schema}` : undefined,
    // A pool with no server behind it must fail the request, not hang it.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => undefined);
  if (config.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${config.schema}`);
  else await pool.query('SELECT 1');
  const direct = queryable(pool);
  return {
    ...direct,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
