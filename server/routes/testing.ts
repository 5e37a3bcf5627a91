/**
 * Helpers for the account tests: an app with only the account routes over a fresh test database
 * (server/db/testing.ts), a clock the test moves, a cheap KDF (the KDF's own test uses the real
 * parameters), and a registered user in one call.
 */

import Fastify, { type FastifyInstance } from 'fastify';
import { openDatabase, type Database } from '../db/database.ts';
import type { TestBackend, TestDatabase } from '../db/testing.ts';
import type { KdfParams } from '../auth/passwords.ts';
import { registerAccounts, type AccountsOptions } from './users.ts';
import { MINUTE_MS } from '../../common/time.ts';

/** scrypt N=2^10: the same code path at 1/32 of the cost. */
export const TEST_KDF: KdfParams = { ln: 10, r: 8, p: 1 };
export const PASSWORD = 'Correct1Horse';
/** Now, in the tests: 2025-11-26 12:00 UTC. */
export const T0 = Date.UTC(2025, 10, 26, 12);

export interface TestClock {
  now: () => number;
  /** Moves the clock on (a minute when no time is given). */
  advance(ms?: number): void;
}

/** A clock the test moves by hand (the server's tests, and the ingest's through server/ingest/testing.ts). */
export function testClock(start = T0): TestClock {
  let t = start;
  return { now: () => t, advance: (ms = MINUTE_MS) => void (t += ms) };
}

export interface AccountsTestApp {
  app: FastifyInstance;
  db: Database;
  clock: TestClock;
  made: TestDatabase;
  close(): Promise<void>;
}

export async function accountsTestApp(
  backend: TestBackend,
  options: Omit<AccountsOptions, 'database'> = {},
  /** More routes beside the accounts' (registered before the app is ready). */
  more?: (app: FastifyInstance, clock: TestClock) => Promise<void>,
): Promise<AccountsTestApp> {
  const made = await backend.make();
  const db = await openDatabase(made.config);
  const clock = testClock();
  const app = Fastify();
  await registerAccounts(app, { database: db, kdf: TEST_KDF, now: clock.now, ...options });
  await more?.(app, clock);
  await app.ready();
  return {
    app, db, clock, made,
    async close() {
      await app.close();
      await db.close();
      await made.cleanup();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface TestUser {
  token: string;
  id: string;
  email: string;
}

let counter = 0;

export async function registerUser(app: FastifyInstance, email = `user${++counter}@example.test`, password = PASSWORD): Promise<TestUser> {
  const response = await app.inject({ method: 'POST', url: '/users/v1/register', payload: { email, password, passwordConfirm: password } });
  if (response.statusCode !== 201) throw new Error(`register ${email}: ${response.statusCode} ${response.body}`);
  const body = response.json() as { token: string; userInfo: { id: string } };
  return { token: body.token, id: body.userInfo.id, email };
}
