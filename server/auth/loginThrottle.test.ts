import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './loginThrottle.ts';
import { DAY_MS, MINUTE_MS } from '../../common/time.ts';

describe('login throttle (OWASP: an attacker cannot lock the owner out)', async () => {
  const make = () => {
    let t = 1_000_000;
    const throttle = createLoginThrottle({ perAccountAddress: 3, perAccountFromNewAddresses: 6, windowMs: 15 * MINUTE_MS, knownAddressMs: 30 * DAY_MS, now: () => t });
    return { throttle, advance: (ms: number) => void (t += ms) };
  };

  it('blocks an address that keeps failing for an account, and only that address', async () => {
    const { throttle, advance } = make();
    for (let i = 0; i < 3; i++) {
      expect(await throttle.blockedFor('victim', '203.0.113.9')).toBe(0);
      await throttle.failed('victim', '203.0.113.9');
    }
    expect(await throttle.blockedFor('victim', '203.0.113.9')).toBe(15 * MINUTE_MS);
    expect(await throttle.blockedFor('victim', '198.51.100.1')).toBe(0);
    expect(await throttle.blockedFor('other', '203.0.113.9')).toBe(0);
    advance(15 * MINUTE_MS);
    expect(await throttle.blockedFor('victim', '203.0.113.9')).toBe(0);
  });

  it('after many failures from many addresses, new addresses wait while the owner\'s known address gets in', async () => {
    const { throttle } = make();
    await throttle.succeeded('victim', '198.51.100.1');
    for (let i = 0; i < 6; i++) await throttle.failed('victim', `203.0.113.${i}`);
    expect(await throttle.blockedFor('victim', '203.0.113.200')).toBeGreaterThan(0);
    expect(await throttle.blockedFor('victim', '198.51.100.1')).toBe(0);
    expect(await throttle.blockedFor('other', '203.0.113.200')).toBe(0);
  });

  it('a success clears the address\'s failures; a known address is forgotten after knownAddressMs', async () => {
    const { throttle, advance } = make();
    await throttle.failed('victim', '198.51.100.1');
    await throttle.failed('victim', '198.51.100.1');
    await throttle.succeeded('victim', '198.51.100.1');
    await throttle.failed('victim', '198.51.100.1');
    await throttle.failed('victim', '198.51.100.1');
    expect(await throttle.blockedFor('victim', '198.51.100.1')).toBe(0);
    advance(31 * DAY_MS);
    for (let i = 0; i < 6; i++) await throttle.failed('victim', `203.0.113.${i}`);
    expect(await throttle.blockedFor('victim', '198.51.100.1')).toBeGreaterThan(0);
  });
});
