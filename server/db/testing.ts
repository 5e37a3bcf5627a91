/**
 * Databases for tests: each case gets its own, thrown away after. SQLite always (a temporary
 * file); PostgreSQL too when ISOBAR_TEST_PG_URL is set (.ci/run sets it), each case in a schema of
 * its own so cases never see each other's rows.
 *
 *   describe.each(testDatabases())('... on $name', ({ make }) => { ... await make() ... })
 */

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from './database.ts';

export interface TestDatabase {
  config: DatabaseConfig;
  /** Removes the file or the schema. */
  cleanup(): Promise<void>;
}

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  make(): Promise<TestDatabase>;
}

export async function makeSqliteTestDatabase(): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'isobar-db-'));
  return {
    config: { kind: 'sqlite', path: join(dir, 'isobar.sqlite') },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Drops the schemas and everything in them (a test's tables, a job queue's). */
export async function dropSchema(url: string, ...names: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function makePostgresTestDatabase(url: string): Promise<TestDatabase> {
  const schema = `t_${randomBytes(8).toString('hex')}`;
  return {
    config: { kind: 'postgres', url, schema, max: 4 },
    cleanup: () => dropSchema(url, schema),
  };
}

export const testPostgresUrl = (): string | undefined => process.env.ISOBAR_TEST_PG_URL?.trim() || undefined;

/** SQLite, and PostgreSQL when ISOBAR_TEST_PG_URL is set. */
export function testDatabases(): TestBackend[] {
  const url = testPostgresUrl();
  return [
    { name: 'sqlite', make: makeSqliteTestDatabase },
    ...(url ? [{ name: 'postgres' as const, make: () => makePostgresTestDatabase(url) }] : []),
  ];
}
