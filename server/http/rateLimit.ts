/**
 * A fixed-window request counter per client key (the address): enough to keep one client from
 * flooding an endpoint that writes logs. In memory, per server process; the windows of keys that
 * went quiet are dropped when a new window starts.
 */

export interface RateLimiter {
  /** Counts a request; false when the key is over its limit in this window. */
  take(key: string): boolean;
  /** ms until the current window ends. */
  retryAfterMs(): number;
}

export function createRateLimiter(limit: number, windowMs: number, now: () => number = Date.now): RateLimiter {
  let windowStart = now();
  let counts = new Map<string, number>();
  const roll = () => {
    const t = now();
    if (t - windowStart >= windowMs) {
      windowStart = t - ((t - windowStart) % windowMs);
      counts = new Map();
    }
  };
  return {
    take(key) {
      roll();
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n <= limit;
    },
    retryAfterMs() {
      roll();
      return Math.max(0, windowMs - (now() - windowStart));
    },
  };
}
