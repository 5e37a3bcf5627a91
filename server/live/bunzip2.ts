/**
 * bzip2 decompression through the system `bzip2` program (Debian package `bzip2`): Node has no
 * bzip2, and DWD publishes ICON only as `.grib2.bz2`. Streams file to file; nothing is held in memory.
 */

import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

export const BZIP2_PROGRAM = process.env.ISOBAR_BZIP2 ?? 'bzip2';

export class Bunzip2Error extends Error {
  override name = 'Bunzip2Error';
}

/** Decompresses `source` into `destination`; a corrupt input is a Bunzip2Error, a missing program says so. */
export async function bunzip2File(source: string, destination: string, signal?: AbortSignal): Promise<void> {
  const child = spawn(BZIP2_PROGRAM, ['-dc', source], { stdio: ['ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  try {
    const [, code] = await Promise.all([pipeline(child.stdout, createWriteStream(destination)), exited]);
    if (code !== 0) throw new Bunzip2Error(`bzip2 could not decompress ${source}: ${stderr.trim() || `exit ${code}`}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`Decompressing DWD .bz2 files needs the "${BZIP2_PROGRAM}" program (Debian package bzip2), which was not found`, { cause: error });
    }
    throw error;
  }
}

/** Whether the bzip2 program runs here. */
export async function bzip2Available(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(BZIP2_PROGRAM, ['--help'], { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('close', () => resolve(true));
  });
}
