import { afterEach, describe, expect, it } from 'vitest';
import { databaseConfigFromEnv, DEFAULT_SQLITE_PATH, lazyDatabase, openDatabase, type Database } from './database.ts';
import { migrate, MIGRATIONS, type Migration } from './migrations.ts';
import { toPostgresPlaceholders } from './postgres.ts';
import { testDatabases, type TestDatabase } from './testing.ts';

describe('databaseConfigFromEnv', () => {
  it('uses the SQLite file var/isobar.sqlite by default', () => {
    expect(databaseConfigFromEnv({})).toEqual({ kind: 'sqlite', path: DEFAULT_SQLITE_PATH });
    expect(DEFAULT_SQLITE_PATH).toMatch(/var[/\\]isobar\.sqlite$/);
  });
  it('uses ISOBAR_DB_PATH', () => {
    expect(databaseConfigFromEnv({ ISOBAR_DB_PATH: '/tmp/x.sqlite' })).toEqual({ kind: 'sqlite', path: '/tmp/x.sqlite' });
  });
  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(databaseConfigFromEnv({ DATABASE_URL: 'postgres://u:p@h/db', ISOBAR_DB_PATH: '/tmp/x' })).toEqual({ kind: 'postgres', url: 'postgres://u:p@h/db' });
    expect(() => databaseConfigFromEnv({ DATABASE_URL: 'mysql://h/db' })).toThrow(/postgres/);
  });
});

describe('toPostgresPlaceholders', () => {
  it.each([
    ['SELECT * FROM t WHERE a = ? AND b = ?', 'SELECT * FROM t WHERE a = $1 AND b = $2'],
    ["SELECT '?' , ? FROM \"a?\"", "SELECT '?' , $1 FROM \"a?\""],
    ['INSERT INTO t VALUES (?, ?, ?)', 'INSERT INTO t VALUES ($1, $2, $3)'],
  ])('%s', (sql, expected) => {
    expect(toPostgresPlaceholders(sql)).toBe(expected);
  });
});

describe.each(testDatabases())('database on $name', ({ make }) => {
  const made: TestDatabase[] = [];
  const opened: Database[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    await Promise.all(made.splice(0).map((m) => m.cleanup()));
  });
  const fresh = async () => {
    const m = await make();
    made.push(m);
    return m;
  };
  const open = async (m: TestDatabase) => {
    const db = await openDatabase(m.config);
    opened.push(db);
    return db;
  };

  it('applies the migrations once and records them', async () => {
    const m = await fresh();
    const db = await open(m);
    const rows = await db.all<{ id: number; name: string; applied: number }>('SELECT id, name, applied FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => [r.id, r.name])).toEqual(MIGRATIONS.map((x) => [x.id, x.name]));
    expect(typeof rows[0].applied).toBe('number');
    expect(await migrate(db)).toEqual([]);
    await db.close();
    opened.pop();
    const again = await open(m);
    expect(await migrate(again)).toEqual([]);
  });

  it('rolls a failing step back whole and does not record it', async () => {
    const db = await open(await fresh());
    const steps: Migration[] = [...MIGRATIONS, { id: 1000, name: 'broken', sql: 'CREATE TABLE half (a INTEGER); CREATE TABLE broken (' }];
    await expect(migrate(db, steps)).rejects.toThrow();
    expect(await db.get('SELECT id FROM schema_migrations WHERE id = 1000')).toBeUndefined();
    await expect(db.all('SELECT * FROM half')).rejects.toThrow();
    const good: Migration[] = [...MIGRATIONS, { id: 1000, name: 'fixed', sql: 'CREATE TABLE half (a INTEGER)' }];
    expect(await migrate(db, good)).toEqual([1000]);
    expect(await db.all('SELECT * FROM half')).toEqual([]);
  });

  it('refuses a database made by a newer server', async () => {
    const db = await open(await fresh());
    await db.run('INSERT INTO schema_migrations (id, name, applied) VALUES (?, ?, ?)', [999, 'future', 1]);
    await expect(migrate(db)).rejects.toThrow(/newer version/);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const db = await open(await fresh());
    await db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v BIGINT)');
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO kv (k, v) VALUES (?, ?)', ['a', 1]);
    });
    await expect(db.transaction(async (tx) => {
      await tx.run('INSERT INTO kv (k, v) VALUES (?, ?)', ['b', 2]);
      throw new Error('no');
    })).rejects.toThrow('no');
    expect(await db.all('SELECT k FROM kv ORDER BY k')).toEqual([{ k: 'a' }]);
  });

  it('keeps BIGINT ms timestamps as numbers and text verbatim', async () => {
    const db = await open(await fresh());
    await db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v BIGINT)');
    // No NUL: PostgreSQL text cannot hold one (the routes refuse control characters at the edge;
    // JSON values escape it as \u0000).
    const tricky = "'; DROP TABLE kv; -- \u{1F600} ? \\ \"";
    await db.run('INSERT INTO kv (k, v) VALUES (?, ?)', [tricky, 1_764_000_000_123]);
    expect(await db.get('SELECT k, v FROM kv')).toEqual({ k: tricky, v: 1_764_000_000_123 });
    const returned = await db.all<{ v: number }>('UPDATE kv SET v = v + 1 RETURNING v');
    expect(returned).toEqual([{ v: 1_764_000_000_124 }]);
    expect((await db.run('DELETE FROM kv WHERE k = ?', ['none'])).changes).toBe(0);
  });

  it('serialises concurrent transactions that increment one row', async () => {
    const db = await open(await fresh());
    await db.exec('CREATE TABLE counter (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)');
    await db.run('INSERT INTO counter (id, n) VALUES (1, 0)');
    await Promise.all(Array.from({ length: 20 }, () => db.transaction(async (tx) => {
      const row = await tx.get<{ n: number }>('UPDATE counter SET n = n + 1 WHERE id = 1 RETURNING n');
      expect(row?.n).toBeGreaterThan(0);
    })));
    expect(await db.get('SELECT n FROM counter')).toEqual({ n: 20 });
  });

  it('keeps what was committed after close and reopen', async () => {
    const m = await fresh();
    const db = await open(m);
    await db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v BIGINT)');
    await db.run('INSERT INTO kv (k, v) VALUES (?, ?)', ['kept', 7]);
    await db.close();
    opened.pop();
    const again = await open(m);
    expect(await again.get('SELECT v FROM kv WHERE k = ?', ['kept'])).toEqual({ v: 7 });
  });
});

describe('lazyDatabase', () => {
  it('opens on first use only, and retries a failed open', async () => {
    let opens = 0;
    const backend = testDatabases()[0];
    const m = await backend.make();
    try {
      const db = lazyDatabase(async () => {
        opens += 1;
        if (opens === 1) throw new Error('first open fails');
        return openDatabase(m.config);
      });
      expect(opens).toBe(0);
      expect(db.opened).toBe(false);
      await expect(db.get('SELECT 1 AS one')).rejects.toThrow('first open fails');
      expect(await db.get('SELECT 1 AS one')).toEqual({ one: 1 });
      expect(opens).toBe(2);
      expect(db.dialect).toBe('sqlite');
      await db.close();
      await expect(db.get('SELECT 1')).rejects.toThrow(/closed/);
    } finally {
      await m.cleanup();
    }
  });
});

describe('SQLite group commit', () => {
  it('answers a write only after an fsync that started after it, sharing fsyncs between concurrent writes', async () => {
    const { openSqlite } = await import('./sqlite.ts');
    const { makeSqliteTestDatabase } = await import('./testing.ts');
    const m = await makeSqliteTestDatabase();
    const events: string[] = [];
    let syncs = 0;
    let syncStarted = () => {};
    const db = openSqlite((m.config as { path: string }).path, {
      syncWal: async () => {
        const n = ++syncs;
        events.push(`sync ${n} start`);
        syncStarted();
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`sync ${n} end`);
      },
    });
    try {
      await db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v BIGINT)');
      syncs = 0;
      events.length = 0;
      await Promise.all(Array.from({ length: 20 }, (_, i) => db.run('INSERT INTO kv (k, v) VALUES (?, ?)', [`k${i}`, i]).then(() => events.push(`ack ${i}`))));
      expect(syncs).toBeGreaterThanOrEqual(1);
      expect(syncs).toBeLessThanOrEqual(3);
      // Every ack follows the end of a sync.
      for (let i = 0; i < 20; i++) expect(events.indexOf(`ack ${i}`)).toBeGreaterThan(events.indexOf('sync 1 end'));
      // A write committed while an fsync runs waits for the next one. The second write is made as
      // soon as the first one's fsync has started (what follows is promise jobs only, which all run
      // before the timer that ends the fsync).
      events.length = 0;
      syncs = 0;
      const firstSyncing = new Promise<void>((resolve) => {
        syncStarted = resolve;
      });
      const first = db.run('INSERT INTO kv (k, v) VALUES (?, ?)', ['a', 1]).then(() => events.push('ack a'));
      await firstSyncing;
      const second = db.run('INSERT INTO kv (k, v) VALUES (?, ?)', ['b', 2]).then(() => events.push('ack b'));
      await Promise.all([first, second]);
      expect(events).toContain('sync 2 end');
      expect(events.indexOf('ack b')).toBeGreaterThan(events.indexOf('sync 2 end'));
      // Reads do not sync.
      syncs = 0;
      await db.all('SELECT * FROM kv');
      await db.get('SELECT COUNT(*) AS n FROM kv');
      expect(syncs).toBe(0);
    } finally {
      await db.close();
      await m.cleanup();
    }
  });

  it('does not acknowledge a write whose fsync failed', async () => {
    const { openSqlite } = await import('./sqlite.ts');
    const { makeSqliteTestDatabase } = await import('./testing.ts');
    const m = await makeSqliteTestDatabase();
    let fail = false;
    const db = openSqlite((m.config as { path: string }).path, {
      syncWal: async () => {
        if (fail) throw new Error('EIO');
      },
    });
    try {
      await db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY)');
      fail = true;
      await expect(db.transaction((tx) => tx.run('INSERT INTO kv (k) VALUES (?)', ['x']))).rejects.toThrow('EIO');
      fail = false;
      expect(await db.all('SELECT k FROM kv')).toEqual([{ k: 'x' }]);
    } finally {
      await db.close();
      await m.cleanup();
    }
  });

  it('fsyncs the real WAL file', async () => {
    const { makeSqliteTestDatabase } = await import('./testing.ts');
    const m = await makeSqliteTestDatabase();
    const db = await openDatabase(m.config);
    try {
      await db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY)');
      await Promise.all(Array.from({ length: 10 }, (_, i) => db.run('INSERT INTO kv (k) VALUES (?)', [`k${i}`])));
      expect(await db.get('PRAGMA synchronous')).toEqual({ synchronous: 1 });
      expect(await db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    } finally {
      await db.close();
      await m.cleanup();
    }
  });
});
