/**
 * The schema, as numbered steps applied in order, each in one transaction together with its row in
 * `schema_migrations` (so a step is either wholly applied and recorded, or not at all). A step is
 * never edited once released: a change is a new step. SQL is written once when both dialects accept
 * it, else per dialect.
 *
 * Columns: times are BIGINT ms since the epoch; JSON values are TEXT, stored as the client sent
 * them (after validation) and parsed when read.
 */

import type { Database, Dialect, Queryable } from './database.ts';

export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string | Readonly<Record<Dialect, string>>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'accounts',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,               -- trimmed, lower case
        username TEXT NOT NULL,
        avatar TEXT,
        password_hash TEXT NOT NULL,              -- PHC string: $scrypt$ln=..,r=..,p=..$salt$hash
        subscription TEXT,                        -- JSON subscription info (SPEC §3), NULL: none
        created BIGINT NOT NULL,
        password_changed BIGINT NOT NULL
      );
      CREATE TABLE auth_tokens (
        id TEXT PRIMARY KEY,                      -- SHA-256 of the bearer token, hex; the token itself is never stored
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created BIGINT NOT NULL,
        expires BIGINT NOT NULL,
        revoked BIGINT                            -- NULL: valid until expires
      );
      CREATE INDEX auth_tokens_user ON auth_tokens (user_id);
      CREATE TABLE user_settings (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value TEXT,                               -- JSON; NULL: removed (kept with its ts, so an older write cannot bring it back)
        ts BIGINT NOT NULL,
        PRIMARY KEY (user_id, name)
      );
      CREATE TABLE user_items (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        value TEXT NOT NULL,                      -- JSON
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        PRIMARY KEY (user_id, collection, id)
      );
      CREATE TABLE store_stamps (                 -- the storeTs of each user's settings and collections
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        store TEXT NOT NULL,
        ts BIGINT NOT NULL,
        PRIMARY KEY (user_id, store)
      );
      CREATE TABLE devices (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        device_id TEXT NOT NULL,
        value TEXT NOT NULL,                      -- JSON device object (SPEC §3 "Device")
        deactivated INTEGER NOT NULL DEFAULT 0,
        token_id TEXT,                            -- the session that registered it (deactivated on its logout)
        updated BIGINT NOT NULL,
        PRIMARY KEY (user_id, device_id)
      );
    `,
  },
  {
    id: 2,
    name: 'alerts and notifications',
    sql: `
      CREATE TABLE alert_evaluations (            -- the last evaluation of each alert (server/alerts/alertService.ts)
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        alert_id TEXT NOT NULL,                   -- the id of the item in user_items collection 'alerts'
        product TEXT NOT NULL,
        ref_time BIGINT NOT NULL,                 -- the run evaluated
        timestamps TEXT NOT NULL,                 -- JSON list of valid times (ms) when every condition holds
        notified TEXT NOT NULL,                   -- JSON list of the valid times already notified
        evaluated BIGINT NOT NULL,
        PRIMARY KEY (user_id, alert_id)
      );
      CREATE TABLE notifications (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type TEXT NOT NULL,                       -- alert | test
        payload TEXT NOT NULL,                    -- JSON: title, body, alertId, timestamps, ...
        created BIGINT NOT NULL,
        received BIGINT,                          -- NULL: no device said it arrived
        opened BIGINT                             -- NULL: new (counted in newCount)
      );
      CREATE INDEX notifications_user ON notifications (user_id, created);
    `,
  },
  {
    id: 3,
    name: 'shared request limits',
    sql: `
      CREATE TABLE rate_windows (                 -- request limits shared by every process (server/auth/sharedState.ts)
        key TEXT PRIMARY KEY,                     -- limiter name ':' key (address, account, user)
        expires BIGINT NOT NULL,                  -- end of the key's window
        count INTEGER NOT NULL                    -- events in the window
      );
      CREATE INDEX rate_windows_expires ON rate_windows (expires);
      CREATE TABLE shared_marks (                 -- times per key, e.g. the addresses each account logged in from
        key TEXT PRIMARY KEY,                     -- mark set name ':' key
        at BIGINT NOT NULL,
        expires BIGINT NOT NULL
      );
      CREATE INDEX shared_marks_expires ON shared_marks (expires);
    `,
  },
];

/** Any number: serialises migrations of several servers sharing one PostgreSQL. */
const MIGRATION_LOCK_KEY = 0x1503ba7;

const BOOTSTRAP = 'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)';

async function lock(tx: Queryable): Promise<void> {
  if (tx.dialect === 'postgres') await tx.all(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
}

/** Applies the steps not yet applied; returns their ids. Refuses a database made by a newer server. */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, now: () => number = Date.now): Promise<number[]> {
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i].id <= migrations[i - 1].id) throw new Error('Migration ids must increase');
  }
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(BOOTSTRAP);
  });
  const known = new Set(migrations.map((m) => m.id));
  const applied = await db.all<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
  const unknown = applied.filter((row) => !known.has(Number(row.id)));
  if (unknown.length > 0) {
    throw new Error(`The database has schema steps this server does not know (${unknown.map((r) => r.id).join(', ')}): it was made by a newer version`);
  }
  const done: number[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await lock(tx);
      // Checked again under the lock: another server may have applied it meanwhile.
      if (await tx.get('SELECT id FROM schema_migrations WHERE id = ?', [migration.id])) return false;
      await tx.exec(typeof migration.sql === 'string' ? migration.sql : migration.sql[tx.dialect]);
      await tx.run('INSERT INTO schema_migrations (id, name, applied) VALUES (?, ?, ?)', [migration.id, migration.name, now()]);
      return true;
    });
    if (ran) done.push(migration.id);
  }
  return done;
}
