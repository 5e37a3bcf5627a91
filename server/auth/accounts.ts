/**
 * Users and their sessions in the database (SPEC §3 "User info", §4 "Login"):
 *
 *   register   a new user with a scrypt password hash (server/auth/passwords.ts) and a first session
 *   login      email + password -> a new session, or null; an unknown email costs the same KDF time
 *   session    a bearer token of 32 random bytes (base64url). Only its SHA-256 is stored, so a copy
 *              of the database holds no usable token; it expires TOKEN_LIFETIME_MS after login and
 *              is revoked by logout, or with all the user's others by a password change
 *
 * Input is checked by the routes (common/account.ts) before it gets here; the rows are read and
 * written by server/db/userStore.ts.
 */

import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { UserStore, type SessionRecord, type UserRecord } from '../db/userStore.ts';
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

export function parseSubscription(text: string | null): SubscriptionInfo | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value as SubscriptionInfo : null;
  } catch {
    return null;
  }
}

const toUser = (row: UserRecord): User => ({
  id: row.id, username: row.username, email: row.email, avatar: row.avatar, subscription: parseSubscription(row.subscription),
});

export class AccountStore {
  /** The clock of the store (the app's; tests set it): token expiry and Premium expiry read it. */
  readonly now: () => number;
  private readonly users: UserStore;
  private readonly kdf: KdfParams;
  private readonly tokenLifetimeMs: number;
  private dummyHash: Promise<string> | null = null;

  constructor(db: Database, options: AccountStoreOptions = {}) {
    this.users = new UserStore(db);
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
    // The KDF runs before the transaction: the SQLite queue must not wait on it.
    const passwordHash = await hashPassword(input.password, this.kdf);
    const id = newUserId();
    const { session, record } = this.newSession(id);
    if (!(await this.users.createUser({ id, email, username, passwordHash, created: record.created }, record))) {
      throw new EmailTakenError('An account with this email already exists');
    }
    return { user: { id, email, username, avatar: null, subscription: null }, session };
  }

  /** A new session for the right email and password, else null (the same time either way). */
  async login(emailInput: string, password: string): Promise<{ user: User; session: Session } | null> {
    const row = await this.users.byEmail(normalizeEmail(emailInput));
    if (!row) {
      // Spend what a real check spends, so the answer time does not tell which addresses have accounts.
      await verifyPassword(password, await this.dummy());
      return null;
    }
    if (!(await verifyPassword(password, row.passwordHash))) return null;
    if (needsRehash(row.passwordHash, this.kdf)) {
      await this.users.upgradePasswordHash(row.id, row.passwordHash, await hashPassword(password, this.kdf));
    }
    const { session, record } = this.newSession(row.id);
    await this.users.addSession(record, this.now() - TOKEN_RETENTION_MS);
    return { user: toUser(row), session };
  }

  /** The user of a valid (known, unexpired, unrevoked) token, else null. */
  async authenticate(token: string): Promise<Principal | null> {
    const tokenId = tokenIdOf(token);
    const found = await this.users.session(tokenId);
    if (!found || found.revoked !== null || found.expires <= this.now()) return null;
    return { user: toUser(found.user), tokenId, token, expiresAt: found.expires };
  }

  /** Ends one session (logout). */
  async revoke(tokenId: string): Promise<void> {
    await this.users.revokeSession(tokenId, this.now());
  }

  /**
   * Sets a new password when the current one is right: every session of the user is revoked and a
   * new one returned (a stolen token dies with the old password). Null for a wrong current password.
   */
  async changePassword(userId: string, current: string, next: string): Promise<Session | null> {
    const hash = await this.users.passwordHash(userId);
    if (hash === null || !(await verifyPassword(current, hash))) return null;
    const passwordHash = await hashPassword(next, this.kdf);
    const { session, record } = this.newSession(userId);
    await this.users.setPassword(userId, passwordHash, record.created, record);
    return session;
  }

  /** Sets the subscription info of a user (null: none). For the Premium code and the admin command. */
  async setSubscription(userId: string, info: SubscriptionInfo | null): Promise<boolean> {
    return this.users.setSubscription(userId, info === null ? null : JSON.stringify(info));
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.users.byEmail(normalizeEmail(email));
    return row ? toUser(row) : null;
  }

  /** A new bearer token, and the row that stores its hash. */
  private newSession(userId: string): { session: Session; record: SessionRecord } {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const tokenId = tokenIdOf(token);
    const created = this.now();
    const expiresAt = created + this.tokenLifetimeMs;
    return { session: { token, tokenId, expiresAt }, record: { tokenId, userId, created, expires: expiresAt } };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'), this.kdf);
    return this.dummyHash;
  }
}
