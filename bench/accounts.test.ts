import { describe, expect, it } from 'vitest';
import { accountsSection, benchAccounts } from './accounts.ts';

describe('benchAccounts', () => {
  it('measures logins and a short fixed-rate sync load against a server process', async () => {
    const result = await benchAccounts({ rate: 40, seconds: 0.5, warmupSeconds: 0.1, logins: 1 });
    expect(result.kdf).toMatch(/^scrypt N=2\^15, r=8, p=1/);
    expect(result.login.count).toBe(1);
    expect(result.sync.errors).toBe(0);
    expect(result.sync.count).toBe(20);
    expect(Object.values(result.sync.byKind).map((k) => k.count)).toEqual([5, 5, 5, 5]);
    expect(result.sync.p99Ms).toBeGreaterThanOrEqual(result.sync.p50Ms);
    expect(accountsSection(result).join('\n')).toContain('| all | 20 |');
  }, 60_000);
});
