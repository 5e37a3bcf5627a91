/**
 * DWD RADVOR nowcasts as DWD publishes them on opendata.dwd.de
 * (weather/radar/radvor/rv/DE1200_RV<yyMMddHHmm>.tar.bz2): a bzip2-compressed POSIX tar of
 * RADOLAN binary products, one per lead time (+0 to +120 min every 5 min), each read by
 * radolan.ts. bzip2 goes through server/live/bunzip2.ts (the system program).
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bunzip2File } from '../../live/bunzip2.ts';
import { RadarFormatError, type RadarField } from './field.ts';
import { readRadolan } from './radolan.ts';

export class RadvorError extends RadarFormatError {
  override name = 'RadvorError';
}

export interface TarMember {
  name: string;
  bytes: Uint8Array;
}

const BLOCK = 512;

/** Regular files of a POSIX (ustar / GNU) tar; a truncated archive or bad header checksum is a RadvorError. */
export function readTar(tar: Uint8Array): TarMember[] {
  const members: TarMember[] = [];
  const ascii = (from: number, length: number): string => {
    const raw = tar.subarray(from, from + length);
    const nul = raw.indexOf(0);
    return new TextDecoder('latin1').decode(nul < 0 ? raw : raw.subarray(0, nul));
  };
  let p = 0;
  while (p + BLOCK <= tar.length) {
    const header = tar.subarray(p, p + BLOCK);
    if (header.every((b) => b === 0)) return members;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
    const stored = parseInt(ascii(p + 148, 8).trim(), 8);
    if (stored !== sum) throw new RadvorError(`tar header at byte ${p} has a bad checksum (${stored} stored, ${sum} computed): the archive is corrupt`);
    const size = parseInt(ascii(p + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const prefix = ascii(p + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + ascii(p, 100);
    const start = p + BLOCK;
    if (start + size > tar.length) throw new RadvorError(`tar member ${name} is truncated: ${tar.length - start} of ${size} bytes`);
    if (type === '0' || type === '\0') members.push({ name, bytes: tar.subarray(start, start + size) });
    p = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new RadvorError(`tar archive ends without its end blocks after ${members.length} members: truncated`);
}

/** Every frame of a RADVOR tar (already decompressed), sorted by valid time. */
export function readRadvorTar(tar: Uint8Array): RadarField[] {
  const members = readTar(tar);
  if (members.length === 0) throw new RadvorError('RADVOR archive holds no products');
  return members.map((m) => {
    try {
      return readRadolan(m.bytes);
    } catch (cause) {
      throw new RadvorError(`RADVOR member ${m.name}: ${(cause as Error).message}`, { cause });
    }
  }).sort((a, b) => a.time - b.time);
}

/** Reads a RADVOR .tar.bz2 file as published (bzip2 through the system program). */
export async function readRadvorFile(path: string, signal?: AbortSignal): Promise<RadarField[]> {
  const dir = await mkdtemp(join(tmpdir(), 'isobar-radvor-'));
  try {
    const tarPath = join(dir, 'frames.tar');
    try {
      await bunzip2File(path, tarPath, signal);
    } catch (cause) {
      throw new RadvorError(`RADVOR archive does not decompress: ${(cause as Error).message}`, { cause });
    }
    return readRadvorTar(new Uint8Array(await readFile(tarPath)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The same for bytes in memory (a download). */
export async function readRadvorBytes(bytes: Uint8Array, signal?: AbortSignal): Promise<RadarField[]> {
  const dir = await mkdtemp(join(tmpdir(), 'isobar-radvor-'));
  try {
    const path = join(dir, 'frames.tar.bz2');
    await writeFile(path, bytes);
    return await readRadvorFile(path, signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
