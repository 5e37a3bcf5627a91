/**
 * Users and their sessions in the database (SPEC §3 "User info", §4 "Login"):
 *
 *   register   a new user with a scrypt password hash (server/auth/passwords.ts) and a first session
 *   login      email + password -> a new session, or null; an unknown email costs the same KDF time
 *   session    a bearer token of 32 random bytes (base64url). Only its SHA-256 is stored, so a copy
 *              of the database holds no usable token; it expires TOKEN_LIFETIME_MS after login and
 *              is revoked by logout, or with all the user's others by a password change
 *
 * Input is checked by the routes (common/account.ts) before it gets here.
 */

import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import { DEFAULT_KDF, hashPassword, needsRehash, verifyPassword, type KdfParams } from './passwords.ts';
import { TOKEN_BYTES, TOKEN_LIFETIME_MS, TOKEN_RETENTION_MS } from './limits.ts';
import type { SubscriptionInfo } from '../../common/entitlements.ts';

export type { SubscriptionInfo };

/** SPEC §3 "User info" (without the subscription, answered beside it). */
export interface UserInfo {
  id: string;
  username: string;
  email: string;
  avatar: string | null;
}

export interface User extends UserInfo {
  subscription: SubscriptionInfo | null;
}

export interface Session {
  /** The bearer token: given to the client once, never stored. */
  token: string;
  /** SHA-256 of the token, hex: the row id. */
  tokenId: string;
  expiresAt: number;
}

/** An authenticated request: the user and the session it came with. */
export interface Principal {
  user: User;
  tokenId: string;
  token: string;
  expiresAt: number;
}

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
}

interface UserRow {
  id: string;
  email: string;
  username: string;
  avatar: string | null;
  password_hash: string;
  subscription: string | null;
}

export interface AccountStoreOptions {
  now?: () => number;
  kdf?: KdfParams;
  tokenLifetimeMs?: number;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const tokenIdOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newUserId = () => randomBytes(12).toString('base64url');

/** A per-user hash the client may keep and show (SPEC §3 authHash): stable, reveals nothing. */
export const authHashOf = (userId: string) => createHash('sha256').update(`isobar-auth:${userId}`).digest('hex').slice(0, 32);

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function parseSubscription(text: string | null): SubscriptionInfo | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value as SubscriptionInfo : null;
  } catch {
    return null;
  }
}

const toUser = (row: UserRow): User => ({
  id: row.id, username: row.username, email: row.email, avatar: row.avatar, subscription: parseSubscription(row.subscription),
});

export class AccountStore {
  /** The clock of the store (the app's; tests set it): token expiry and Premium expiry read it. */
  readonly now: () => number;
  private readonly kdf: KdfParams;
  private readonly tokenLifetimeMs: number;
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly db: Database, options: AccountStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.kdf = options.kdf ?? DEFAULT_KDF;
    this.tokenLifetimeMs = options.tokenLifetimeMs ?? TOKEN_LIFETIME_MS;
  }

  get kdfParams(): KdfParams {
    return this.kdf;
  }

  /** Creates the user and its first session. Throws EmailTakenError when the address has an account. */
  async register(input: { email: string; password: string; username?: string }): Promise<{ user: User; session: Session }> {
    const email = normalizeEmail(input.email);
    const username = input.username?.trim() || email.split('@')[0];
    // The KDF runs outside the transaction: the SQLite queue must not wait on it.
    const passwordHash = await hashPassword(input.password, this.kdf);
    try {
      return await this.db.transaction(async (tx) => {
        if (await tx.get('SELECT id FROM users WHERE email = ?', [email])) throw new EmailTakenError('An account with this email already exists');
        const id = newUserId();
        const now = this.now();
        await tx.run(
          'INSERT INTO users (id, email, username, avatar, password_hash, subscription, created, password_changed) VALUES (?, ?, ?, NULL, ?, NULL, ?, ?)',
          [id, email, username, passwordHash, now, now],
        );
        const session = await this.createSession(tx, id);
        return { user: { id, email, username, avatar: null, subscription: null }, session };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError('An account with this email already exists');
      throw error;
    }
  }

  /** A new session for the right email and password, else null (the same time either way). */
  async login(emailInput: string, password: string): Promise<{ user: User; session: Session } | null> {
    const email = normalizeEmail(emailInput);
    const row = await this.db.get<UserRow>('SELECT id, email, username, avatar, password_hash, subscription FROM users WHERE email = ?', [email]);
    if (!row) {
      // Spend what a real check spends, so the answer time does not tell which addresses have accounts.
      await verifyPassword(password, await this.dummy());
      return null;
    }
    if (!(await verifyPassword(password, row.password_hash))) return null;
    if (needsRehash(row.password_hash, this.kdf)) {
      const stronger = await hashPassword(password, this.kdf);
      await this.db.run('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?', [stronger, row.id, row.password_hash]);
    }
    const session = await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM auth_tokens WHERE user_id = ? AND (expires < ? OR revoked < ?)', [row.id, this.now() - TOKEN_RETENTION_MS, this.now() - TOKEN_RETENTION_MS]);
      return this.createSession(tx, row.id);
    });
    return { user: toUser(row), session };
  }

  /** The user of a valid (known, unexpired, unrevoked) token, else null. */
  async authenticate(token: string): Promise<Principal | null> {
    const tokenId = tokenIdOf(token);
    const row = await this.db.get<UserRow & { expires: number; revoked: number | null }>(
      `SELECT u.id, u.email, u.username, u.avatar, u.password_hash, u.subscription, t.expires, t.revoked
       FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?`,
      [tokenId],
    );
    if (!row || row.revoked !== null || row.expires <= this.now()) return null;
    return { user: toUser(row), tokenId, token, expiresAt: row.expires };
  }

  /** Ends one session (logout). */
  async revoke(tokenId: string): Promise<void> {
    await this.db.run('UPDATE auth_tokens SET revoked = ? WHERE id = ? AND revoked IS NULL', [this.now(), tokenId]);
  }

  /**
   * Sets a new password when the current one is right: every session of the user is revoked and a
   * new one returned (a stolen token dies with the old password). Null for a wrong current password.
   */
  async changePassword(userId: string, current: string, next: string): Promise<Session | null> {
    const row = await this.db.get<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = ?', [userId]);
    if (!row || !(await verifyPassword(current, row.password_hash))) return null;
    const passwordHash = await hashPassword(next, this.kdf);
    return this.db.transaction(async (tx) => {
      const now = this.now();
      await tx.run('UPDATE users SET password_hash = ?, password_changed = ? WHERE id = ?', [passwordHash, now, userId]);
      await tx.run('UPDATE auth_tokens SET revoked = ? WHERE user_id = ? AND revoked IS NULL', [now, userId]);
      return this.createSession(tx, userId);
    });
  }

  /** Sets the subscription info of a user (null: none). For the Premium code and the admin command. */
  async setSubscription(userId: string, info: SubscriptionInfo | null): Promise<boolean> {
    const result = await this.db.run('UPDATE users SET subscription = ? WHERE id = ?', [info === null ? null : JSON.stringify(info), userId]);
    return result.changes > 0;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db.get<UserRow>('SELECT id, email, username, avatar, password_hash, subscription FROM users WHERE email = ?', [normalizeEmail(email)]);
    return row ? toUser(row) : null;
  }

  private async createSession(tx: Queryable, userId: string): Promise<Session> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const tokenId = tokenIdOf(token);
    const now = this.now();
    const expiresAt = now + this.tokenLifetimeMs;
    await tx.run('INSERT INTO auth_tokens (id, user_id, created, expires, revoked) VALUES (?, ?, ?, ?, NULL)', [tokenId, userId, now, expiresAt]);
    return { token, tokenId, expiresAt };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'), this.kdf);
    return this.dummyHash;
  }
}
