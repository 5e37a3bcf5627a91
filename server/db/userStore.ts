/**
 * The users and auth_tokens tables (server/db/migrations.ts step 1): the SQL of accounts and their
 * sessions. The rules (password hashing, token making, expiry) are server/auth/accounts.ts's; this
 * module only reads and writes rows, each multi-statement change in one transaction.
 */

import type { Database, Queryable } from './database.ts';

/** A users row. */
export interface UserRecord {
  id: string;
  email: string;
  username: string;
  avatar: string | null;
  /** PHC string (server/auth/passwords.ts). */
  passwordHash: string;
  /** JSON subscription info (SPEC §3), null: none. */
  subscription: string | null;
}

/** An auth_tokens row as it is made. */
export interface SessionRecord {
  /** SHA-256 of the bearer token, hex. */
  tokenId: string;
  userId: string;
  created: number;
  expires: number;
}

interface UserRow {
  id: string;
  email: string;
  username: string;
  avatar: string | null;
  password_hash: string;
  subscription: string | null;
}

const USER_COLUMNS = 'u.id, u.email, u.username, u.avatar, u.password_hash, u.subscription';

const toRecord = (row: UserRow): UserRecord => ({
  id: row.id, email: row.email, username: row.username, avatar: row.avatar, passwordHash: row.password_hash, subscription: row.subscription,
});

/** A unique-key violation in either dialect (PostgreSQL 23505; SQLite's constraint codes). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

async function insertSession(tx: Queryable, session: SessionRecord): Promise<void> {
  await tx.run('INSERT INTO auth_tokens (id, user_id, created, expires, revoked) VALUES (?, ?, ?, ?, NULL)', [session.tokenId, session.userId, session.created, session.expires]);
}

export class UserStore {
  constructor(private readonly db: Database) {}

  /**
   * A new user (no avatar, no subscription) and its first session, together; false when the email
   * already has an account (checked first, and by the unique key when two registrations race).
   */
  async createUser(user: { id: string; email: string; username: string; passwordHash: string; created: number }, session: SessionRecord): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        if (await tx.get('SELECT id FROM users WHERE email = ?', [user.email])) return false;
        await tx.run(
          'INSERT INTO users (id, email, username, avatar, password_hash, subscription, created, password_changed) VALUES (?, ?, ?, NULL, ?, NULL, ?, ?)',
          [user.id, user.email, user.username, user.passwordHash, user.created, user.created],
        );
        await insertSession(tx, session);
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** The user with this (normalized) email, or null. */
  async byEmail(email: string): Promise<UserRecord | null> {
    const row = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.email = ?`, [email]);
    return row ? toRecord(row) : null;
  }

  /** The password hash of a user, or null when there is no such user. */
  async passwordHash(userId: string): Promise<string | null> {
    const row = await this.db.get<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = ?', [userId]);
    return row?.password_hash ?? null;
  }

  /** Replaces the hash only while it is still `current` (a rehash must not undo a password change made meanwhile). */
  async upgradePasswordHash(userId: string, current: string, next: string): Promise<void> {
    await this.db.run('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?', [next, userId, current]);
  }

  /** A new password: every session of the user is revoked and `session` made, together. */
  async setPassword(userId: string, passwordHash: string, at: number, session: SessionRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE users SET password_hash = ?, password_changed = ? WHERE id = ?', [passwordHash, at, userId]);
      await tx.run('UPDATE auth_tokens SET revoked = ? WHERE user_id = ? AND revoked IS NULL', [at, userId]);
      await insertSession(tx, session);
    });
  }

  /** Sets the subscription JSON (null: none); false when there is no such user. */
  async setSubscription(userId: string, json: string | null): Promise<boolean> {
    return (await this.db.run('UPDATE users SET subscription = ? WHERE id = ?', [json, userId])).changes > 0;
  }

  /** A new session; the user's sessions that expired or were revoked before `staleBefore` go in the same transaction. */
  async addSession(session: SessionRecord, staleBefore: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM auth_tokens WHERE user_id = ? AND (expires < ? OR revoked < ?)', [session.userId, staleBefore, staleBefore]);
      await insertSession(tx, session);
    });
  }

  /** The session with this token id and its user (whatever its state), or null. */
  async session(tokenId: string): Promise<{ user: UserRecord; expires: number; revoked: number | null } | null> {
    const row = await this.db.get<UserRow & { expires: number | string; revoked: number | string | null }>(
      `SELECT ${USER_COLUMNS}, t.expires, t.revoked FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?`,
      [tokenId],
    );
    return row ? { user: toRecord(row), expires: Number(row.expires), revoked: row.revoked === null ? null : Number(row.revoked) } : null;
  }

  /** Ends one session (logout); a session already revoked keeps its time. */
  async revokeSession(tokenId: string, at: number): Promise<void> {
    await this.db.run('UPDATE auth_tokens SET revoked = ? WHERE id = ? AND revoked IS NULL', [at, tokenId]);
  }
}
