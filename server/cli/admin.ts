/**
 * `npm run admin -- premium grant|revoke <email> [--days N]`: Premium by hand, for a server with
 * no payment provider configured (SPEC §3 "Subscription info", §4 "Subscription").
 *
 *   grant   status active, tier premium, platform admin, expiresAt now + N days (default 30);
 *           Premium starts with the user's next request (the server reads the tier per request)
 *   revoke  status canceled, expiring now: the tier ends at once (only status active sets it)
 *
 * The database is the server's: DATABASE_URL, else the SQLite file ISOBAR_DB_PATH or
 * var/isobar.sqlite. Prints one line saying what it did; a wrong command or an unknown email prints
 * one line on stderr and exits with code 1 (usage: 2).
 */

import { pathToFileURL } from 'node:url';
import { AccountStore, type SubscriptionInfo } from '../auth/accounts.ts';
import { databaseConfigFromEnv, openDatabase, type Database } from '../db/database.ts';
import { DAY_MS } from '../../common/time.ts';

export const USAGE = 'usage: npm run admin -- premium grant|revoke <email> [--days N]';
export const DEFAULT_GRANT_DAYS = 30;
export interface AdminOutput {
  out(line: string): void;
  err(line: string): void;
}

export type PremiumCommand = { action: 'grant' | 'revoke'; email: string; days: number };

/** Parses the arguments after `npm run admin --`; a string is the error to print. */
export function parseAdminArgs(args: readonly string[]): PremiumCommand | string {
  const [group, action, email, ...rest] = args;
  if (group !== 'premium' || (action !== 'grant' && action !== 'revoke') || !email || email.startsWith('-')) return USAGE;
  let days = DEFAULT_GRANT_DAYS;
  for (let k = 0; k < rest.length; k++) {
    if (rest[k] === '--days' && action === 'grant') {
      const value = Number(rest[++k]);
      if (!Number.isInteger(value) || value < 1 || value > 36600) return '--days takes a whole number of days from 1 to 36600';
      days = value;
    } else {
      return USAGE;
    }
  }
  return { action, email, days };
}

/** The subscription info a command sets. */
export function subscriptionFor(command: PremiumCommand, now: number): SubscriptionInfo {
  return command.action === 'grant'
    ? { state: 'admin', platform: 'admin', status: 'active', tier: 'premium', isSubscription: false, isTrial: false, expiresAt: now + command.days * DAY_MS }
    : { state: 'admin', platform: 'admin', status: 'canceled', tier: undefined, isSubscription: false, isTrial: false, expiresAt: now };
}

/** Runs a command against a database; answers the exit code. */
export async function runAdmin(args: readonly string[], db: Database, io: AdminOutput, now: () => number = Date.now): Promise<number> {
  const command = parseAdminArgs(args);
  if (typeof command === 'string') {
    io.err(command);
    return 2;
  }
  const accounts = new AccountStore(db, { now });
  const user = await accounts.findByEmail(command.email);
  if (!user) {
    io.err(`admin: no user with the email ${command.email}`);
    return 1;
  }
  const info = subscriptionFor(command, now());
  await accounts.setSubscription(user.id, info);
  io.out(command.action === 'grant'
    ? `Premium granted to ${user.email} until ${new Date(info.expiresAt as number).toISOString()}`
    : `Premium revoked from ${user.email}`);
  return 0;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const parsed = parseAdminArgs(args);
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const db = await openDatabase(databaseConfigFromEnv());
  try {
    return await runAdmin(args, db, { out: console.log, err: console.error });
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then((code) => {
    process.exitCode = code;
  }, (error: unknown) => {
    console.error(`admin: ${(error as Error).message}`);
    process.exitCode = 1;
  });
}
