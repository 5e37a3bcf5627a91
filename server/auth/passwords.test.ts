import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KDF, describeKdf, hashParams, hashPassword, needsRehash, verifyPassword } from './passwords.ts';

const CHEAP = { ln: 10, r: 8, p: 1 };

describe('password hashing (scrypt)', () => {
  it('uses N=2^15, r=8, p=1 by default, stored with its parameters and never the password', async () => {
    expect(DEFAULT_KDF).toEqual({ ln: 15, r: 8, p: 1 });
    const hash = await hashPassword('Secret123x');
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(hash).not.toContain('Secret123x');
    expect(hashParams(hash)).toEqual(DEFAULT_KDF);
    // The work is the one the string states: scrypt itself, run here with N = 2^15, r = 8, p = 1 on
    // the stored salt, gives the stored key (a cheaper KDF, or cheaper parameters, would not). What
    // that costs per login is the bench's figure (npm run bench, "login latency").
    const [, , , salt, key] = hash.split('$');
    const N = 2 ** 15;
    const expected = scryptSync('Secret123x', Buffer.from(salt, 'base64'), 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
    expect(Buffer.from(key, 'base64').equals(expected)).toBe(true);
    expect(await verifyPassword('Secret123x', hash)).toBe(true);
    expect(describeKdf()).toBe('scrypt N=2^15, r=8, p=1, 16-byte salt, 32-byte key, 32 MiB');
  });

  it('salts every hash: the same password twice gives two hashes', async () => {
    const [a, b] = await Promise.all([hashPassword('Same1Password', CHEAP), hashPassword('Same1Password', CHEAP)]);
    expect(a).not.toBe(b);
    expect(a.split('$')[3]).not.toBe(b.split('$')[3]);
    expect(await verifyPassword('Same1Password', a)).toBe(true);
    expect(await verifyPassword('Same1Password', b)).toBe(true);
  });

  it.each([
    ['a wrong password', 'Wrong1Password'],
    ['the password with other case', 'same1password'],
    ['an empty password', ''],
    ['the password with a trailing space', 'Same1Password '],
  ])('refuses %s', async (_name, attempt) => {
    const hash = await hashPassword('Same1Password', CHEAP);
    expect(await verifyPassword(attempt, hash)).toBe(false);
  });

  it('treats composed and decomposed Unicode as the same password (NFC)', async () => {
    const hash = await hashPassword('Caf\u00e9Latte1', CHEAP);
    expect(await verifyPassword('Cafe\u0301Latte1', hash)).toBe(true);
  });

  it.each([
    ['garbage', 'not a hash'],
    ['another algorithm', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA'],
    ['absurd parameters', '$scrypt$ln=40,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'],
    ['plaintext', 'Same1Password'],
  ])('refuses a stored value that is %s without throwing', async (_name, stored) => {
    expect(await verifyPassword('Same1Password', stored)).toBe(false);
  });

  it('asks for a rehash of weaker hashes only', async () => {
    expect(needsRehash(await hashPassword('Same1Password', CHEAP))).toBe(true);
    expect(needsRehash(await hashPassword('Same1Password', CHEAP), CHEAP)).toBe(false);
    expect(needsRehash('garbage')).toBe(true);
  });
});
