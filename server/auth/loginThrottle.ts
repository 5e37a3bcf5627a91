/**
 * Login throttling that an attacker cannot turn against the account's owner (OWASP Authentication
 * Cheat Sheet, "Account Lockout": a lockout per account lets anyone lock a user out by failing on
 * purpose). Failures are counted:
 *
 *   per account and address   LOGIN_FAILURES_PER_ACCOUNT_ADDRESS in a window, then that address
 *                             waits for that account; the owner elsewhere is not affected
 *   per account               LOGIN_FAILURES_PER_ACCOUNT_NEW_ADDRESSES failures from any addresses
 *                             (a distributed guess), then only addresses that never logged into the
 *                             account (in the last KNOWN_ADDRESS_MS) wait; the owner's usual
 *                             addresses still get in
 *
 * Besides this, every attempt from an address counts against LOGIN_ATTEMPTS_PER_IP (routes/account.ts).
 * In memory, per process, like the other limiters (server/auth/keyedLimiter.ts).
 */

import { createKeyedLimiter } from './keyedLimiter.ts';

export interface LoginThrottle {
  /** ms until this address may try this account again; 0 when it may now. */
  blockedFor(account: string, address: string): number;
  failed(account: string, address: string): void;
  succeeded(account: string, address: string): void;
}

export interface LoginThrottleOptions {
  perAccountAddress: number;
  perAccountFromNewAddresses: number;
  windowMs: number;
  /** How long an address that logged in stays known to the account. */
  knownAddressMs: number;
  now?: () => number;
}

/** Known (account, address) pairs kept at most; the oldest are forgotten first. */
const KNOWN_PAIRS_MAX = 100_000;

const pairKey = (account: string, address: string) => `${account}\n${address}`;

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const now = options.now ?? Date.now;
  const pairs = createKeyedLimiter(options.perAccountAddress, options.windowMs, now);
  const accounts = createKeyedLimiter(options.perAccountFromNewAddresses, options.windowMs, now);
  /** (account, address) -> the time of its last successful login; Map order is the age order. */
  const known = new Map<string, number>();
  const isKnown = (key: string) => {
    const at = known.get(key);
    return at !== undefined && now() - at < options.knownAddressMs;
  };
  return {
    blockedFor(account, address) {
      const key = pairKey(account, address);
      const pair = pairs.blockedFor(key);
      if (pair > 0) return pair;
      return isKnown(key) ? 0 : accounts.blockedFor(account);
    },
    failed(account, address) {
      pairs.hit(pairKey(account, address));
      accounts.hit(account);
    },
    succeeded(account, address) {
      const key = pairKey(account, address);
      pairs.reset(key);
      known.delete(key);
      if (known.size >= KNOWN_PAIRS_MAX) known.delete(known.keys().next().value as string);
      known.set(key, now());
    },
  };
}
