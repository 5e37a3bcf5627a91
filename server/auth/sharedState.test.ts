import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { testDatabases } from '../db/testing.ts';
import { TEST_KDF } from '../routes/testing.ts';
import { AccountStore } from './accounts.ts';
import { createLoginThrottle } from './loginThrottle.ts';
import { databaseSharedState } from './sharedState.ts';
import { DAY_MS, MINUTE_MS } from '../../common/time.ts';

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

// Two handles on one database (two pools on PostgreSQL) stand for two web processes.
describe.each(testDatabases())('state shared by two processes on $name', ({ make }) => {
  async function twoProcesses(): Promise<[Database, Database]> {
    const test = await make();
    cleanup.push(() => test.cleanup());
    const a = await openDatabase(test.config);
    cleanup.push(() => a.close());
    const b = await openDatabase(test.config);
    cleanup.push(() => b.close());
    return [a, b];
  }

  it('a limit hit through one process blocks in the other; a window that ended starts again', async () => {
    const [a, b] = await twoProcesses();
    let t = 1_000_000;
    const inA = databaseSharedState(a, () => t).limiter('login-ip', 3, MINUTE_MS);
    const inB = databaseSharedState(b, () => t).limiter('login-ip', 3, MINUTE_MS);
    // Hits from both at once all count.
    await Promise.all([inA.hit('203.0.113.9'), inB.hit('203.0.113.9')]);
    expect(await inB.blockedFor('203.0.113.9')).toBe(0);
    await inA.hit('203.0.113.9');
    expect(await inB.blockedFor('203.0.113.9')).toBe(MINUTE_MS);
    expect(await inB.blockedFor('198.51.100.1')).toBe(0);
    // Another limiter's keys are its own.
    expect(await databaseSharedState(b, () => t).limiter('register-ip', 1, MINUTE_MS).blockedFor('203.0.113.9')).toBe(0);
    t += MINUTE_MS;
    expect(await inA.blockedFor('203.0.113.9')).toBe(0);
    await inB.hit('203.0.113.9');
    expect(await inA.blockedFor('203.0.113.9')).toBe(0);
    await inA.reset('203.0.113.9');
  });

  it('login failures counted by one process throttle the other; a known address is known to both', async () => {
    const [a, b] = await twoProcesses();
    let t = 1_000_000;
    const options = { perAccountAddress: 3, perAccountFromNewAddresses: 6, windowMs: 15 * MINUTE_MS, knownAddressMs: 30 * DAY_MS, now: () => t };
    const inA = createLoginThrottle(options, databaseSharedState(a, options.now));
    const inB = createLoginThrottle(options, databaseSharedState(b, options.now));
    await inA.succeeded('victim', '198.51.100.1');
    for (let i = 0; i < 3; i++) await (i % 2 ? inA : inB).failed('victim', '203.0.113.9');
    expect(await inA.blockedFor('victim', '203.0.113.9')).toBe(15 * MINUTE_MS);
    for (let i = 0; i < 3; i++) await inA.failed('victim', `192.0.2.${i}`);
    expect(await inB.blockedFor('victim', '192.0.2.200')).toBeGreaterThan(0);
    expect(await inB.blockedFor('victim', '198.51.100.1')).toBe(0);
    t += 31 * DAY_MS;
    for (let i = 0; i < 6; i++) await inB.failed('victim', `192.0.2.${i}`);
    expect(await inA.blockedFor('victim', '198.51.100.1')).toBeGreaterThan(0);
  });

  it('a token revoked through one process is refused by the other', async () => {
    const [a, b] = await twoProcesses();
    const inA = new AccountStore(a, { kdf: TEST_KDF });
    const inB = new AccountStore(b, { kdf: TEST_KDF });
    const { session } = await inA.register({ email: 'ada@example.test', password: 'a long enough password' });
    expect((await inB.authenticate(session.token))?.user.email).toBe('ada@example.test');
    await inA.revoke(session.tokenId);
    expect(await inB.authenticate(session.token)).toBeNull();
  });
});
