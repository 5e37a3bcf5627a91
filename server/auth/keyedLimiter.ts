/**
 * Counts events per key (a client address, an account) in a fixed window that starts at the key's
 * first event, and says how long a key that went over its limit must wait. This is the in-memory
 * one, per server process (SQLite, one process); with PostgreSQL every process counts in one table
 * (server/auth/sharedState.ts), behind the same interface. Keys whose window ended are swept when
 * the map grows.
 */

export interface KeyedLimiter {
  /** ms until the key may try again; 0 when it may now. Counts nothing. */
  blockedFor(key: string): Promise<number>;
  /** Counts one event for the key. */
  hit(key: string): Promise<void>;
  /** Forgets the key (a successful login clears its failures). */
  reset(key: string): Promise<void>;
}

const SWEEP_ABOVE = 10_000;

export function createKeyedLimiter(limit: number, windowMs: number, now: () => number = Date.now): KeyedLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && now() - w.start >= windowMs) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  const sweep = () => {
    const t = now();
    for (const [key, w] of windows) if (t - w.start >= windowMs) windows.delete(key);
  };
  return {
    async blockedFor(key) {
      const w = current(key);
      return w && w.count >= limit ? Math.max(1, w.start + windowMs - now()) : 0;
    },
    async hit(key) {
      const w = current(key);
      if (w) {
        w.count += 1;
        return;
      }
      if (windows.size >= SWEEP_ABOVE) sweep();
      windows.set(key, { start: now(), count: 1 });
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
