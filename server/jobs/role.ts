/**
 * What this process does (issue 17 point 1), from ISOBAR_ROLE:
 *
 *   all      (default) everything in one process, exactly as before: SQLite or PostgreSQL, the
 *            in-process job queue (server/jobs/jobQueue.ts)
 *   web      serves the app, the data and the user API; downloads, ingests, evaluates and pushes
 *            nothing (it sends push jobs to the queue for an ingest process)
 *   ingest   live sources, observation sources, samples, ingest, alert evaluation and push sends,
 *            as jobs of the PostgreSQL queue; it listens on PORT for the operations routes only
 *
 * web and ingest share state with the other processes through PostgreSQL, so they need
 * DATABASE_URL=postgres://...; any number of each may run against one database.
 */

import { databaseConfigFromEnv } from '../db/database.ts';

export const ROLES = ['all', 'web', 'ingest'] as const;
export type Role = (typeof ROLES)[number];

export const DEFAULT_ROLE: Role = 'all';

export interface RoleConfig {
  role: Role;
  /** Serves the app, data and user routes. */
  serves: boolean;
  /** Runs the background work: sources, ingest, alert evaluation, push sends. */
  works: boolean;
  /** The PostgreSQL URL of the shared job queue; null: the in-process queue (role all). */
  queueUrl: string | null;
}

/** The role ISOBAR_ROLE names; a bad name, or web or ingest without PostgreSQL, throws with what to set. */
export function roleFromEnv(env: NodeJS.ProcessEnv = process.env): RoleConfig {
  const name = env.ISOBAR_ROLE?.trim() || DEFAULT_ROLE;
  if (!(ROLES as readonly string[]).includes(name)) {
    throw new Error(`ISOBAR_ROLE must be one of ${ROLES.join(', ')} (got ${JSON.stringify(name)})`);
  }
  const role = name as Role;
  if (role === 'all') return { role, serves: true, works: true, queueUrl: null };
  const database = databaseConfigFromEnv(env);
  if (database.kind !== 'postgres') {
    throw new Error(`ISOBAR_ROLE=${role} shares its state with the other processes through PostgreSQL: set DATABASE_URL=postgres://...`);
  }
  return { role, serves: role === 'web', works: role === 'ingest', queueUrl: database.url };
}
