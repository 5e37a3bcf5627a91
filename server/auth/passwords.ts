/**
 * Password hashing with scrypt (node:crypto; RFC 7914), stored as a PHC string
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64 without padding), so a hash keeps the parameters it
 * was made with and stronger defaults later still verify old hashes (and rehash them on login).
 *
 * Default parameters: N = 2^15, r = 8, p = 1: 32 MiB of memory and some 50-100 ms of one core per
 * hash here, run on libuv's thread pool so the event loop keeps serving meanwhile. (OWASP's Password
 * Storage Cheat Sheet asks N = 2^17 for scrypt; that is 128 MiB and ~4x the time per login. Raising
 * DEFAULT_KDF is safe: old hashes still verify and are rehashed at their next login.) Salt 16 random
 * bytes, key 32 bytes, compared in constant time (timingSafeEqual).
 */

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface KdfParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

export const DEFAULT_KDF: Readonly<KdfParams> = { ln: 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Parameters accepted from a stored hash (a corrupted row must not make the server allocate gigabytes). */
const MAX_LN = 20;
const MAX_R = 32;
const MAX_P = 16;

const b64 = (buf: Buffer) => buf.toString('base64').replace(/=+$/, '');

function derive(password: string, salt: Buffer, params: KdfParams, keyBytes: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * params.p + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export function describeKdf(params: KdfParams = DEFAULT_KDF): string {
  return `scrypt N=2^${params.ln}, r=${params.r}, p=${params.p}, ${SALT_BYTES}-byte salt, ${KEY_BYTES}-byte key, ${(128 * 2 ** params.ln * params.r) / 2 ** 20} MiB`;
}

export async function hashPassword(password: string, params: KdfParams = DEFAULT_KDF): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

interface ParsedHash {
  params: KdfParams;
  salt: Buffer;
  key: Buffer;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,64})\$([A-Za-z0-9+/]{16,128})$/;

function parseHash(stored: string): ParsedHash | null {
  const m = PHC.exec(stored);
  if (!m) return null;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.ln < 1 || params.ln > MAX_LN || params.r < 1 || params.r > MAX_R || params.p < 1 || params.p > MAX_P) return null;
  return { params, salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

/** The parameters a stored hash was made with, or null when it is not one of ours. */
export function hashParams(stored: string): KdfParams | null {
  return parseHash(stored)?.params ?? null;
}

/** True when the password matches; false for a wrong password or an unreadable hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** A stored hash weaker than `params` (rehash it after a successful login). */
export function needsRehash(stored: string, params: KdfParams = DEFAULT_KDF): boolean {
  const p = hashParams(stored);
  return p === null || p.ln < params.ln || p.r < params.r || p.p < params.p;
}
