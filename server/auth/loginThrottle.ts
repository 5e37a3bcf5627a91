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
 * The counts and known addresses are kept by a SharedState (server/auth/sharedState.ts): in
 * memory for one process, in PostgreSQL tables when several share the database.
 */

import { memorySharedState, type SharedState } from './sharedState.ts';

export interface LoginThrottle {
  /** ms until this address may try this account again; 0 when it may now. */
  blockedFor(account: string, address: string): Promise<number>;
  failed(account: string, address: string): Promise<void>;
  succeeded(account: string, address: string): Promise<void>;
}

export interface LoginThrottleOptions {
  perAccountAddress: number;
  perAccountFromNewAddresses: number;
  windowMs: number;
  /** How long an address that logged in stays known to the account. */
  knownAddressMs: number;
  now?: () => number;
}

const pairKey = (account: string, address: string) => `${account}\n${address}`;

export function createLoginThrottle(options: LoginThrottleOptions, state: SharedState = memorySharedState(options.now)): LoginThrottle {
  const now = options.now ?? Date.now;
  const pairs = state.limiter('login-pair', options.perAccountAddress, options.windowMs);
  const accounts = state.limiter('login-account', options.perAccountFromNewAddresses, options.windowMs);
  /** (account, address) -> the time of its last successful login. */
  const known = state.marks('login-known', options.knownAddressMs);
  const isKnown = async (key: string) => {
    const at = await known.get(key);
    return at !== undefined && now() - at < options.knownAddressMs;
  };
  return {
    async blockedFor(account, address) {
      const key = pairKey(account, address);
      const pair = await pairs.blockedFor(key);
      if (pair > 0) return pair;
      return (await isKnown(key)) ? 0 : accounts.blockedFor(account);
    },
    async failed(account, address) {
      await pairs.hit(pairKey(account, address));
      await accounts.hit(account);
    },
    async succeeded(account, address) {
      const key = pairKey(account, address);
      await pairs.reset(key);
      await known.set(key, now());
    },
  };
}
