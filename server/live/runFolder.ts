/**
 * The folder where one run of one source is downloaded, `{dataDir}/downloads/{source}/{YYYYMMDDHH}/`:
 *
 *   f003.index        the upstream index (or DWD file list) the step was planned from, kept so a
 *                     resumed download asks for exactly the same byte ranges
 *   f003.grib2.part   the step while it downloads: whole, validated chunks back to back
 *   f003.grib2        the finished step: the wanted GRIB2 messages in upstream order
 *   f003.done.json    completion marker, written last: { bytes, messages, url }; a step whose marker
 *                     is there and whose file has that size is never fetched again
 *   f003/             DWD only: one file per variable while the step downloads
 */

import { mkdir, readFile, readdir, rm, stat, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { hour3, runParts } from './source.ts';

export interface StepMarker {
  bytes: number;
  messages: number;
  url: string;
}

export function runFolderPath(downloadDir: string, refTime: number): string {
  return join(downloadDir, runParts(refTime).yyyymmddhh);
}

export class RunFolder {
  constructor(readonly dir: string) {}

  static forRun(downloadDir: string, refTime: number): RunFolder {
    return new RunFolder(runFolderPath(downloadDir, refTime));
  }

  stepName(step: number): string {
    return `f${hour3(step)}`;
  }

  stepFile(step: number): string {
    return join(this.dir, `${this.stepName(step)}.grib2`);
  }

  partFile(step: number): string {
    return `${this.stepFile(step)}.part`;
  }

  stepDir(step: number): string {
    return join(this.dir, this.stepName(step));
  }

  private markerFile(step: number): string {
    return join(this.dir, `${this.stepName(step)}.done.json`);
  }

  private indexFile(step: number): string {
    return join(this.dir, `${this.stepName(step)}.index`);
  }

  async create(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  async isStepComplete(step: number): Promise<boolean> {
    try {
      const marker = JSON.parse(await readFile(this.markerFile(step), 'utf8')) as StepMarker;
      return (await stat(this.stepFile(step))).size === marker.bytes;
    } catch {
      return false;
    }
  }

  /** Moves the finished part into place, then writes the marker (the marker is the commit). */
  async completeStep(step: number, marker: StepMarker): Promise<void> {
    await rename(this.partFile(step), this.stepFile(step));
    await writeFile(this.markerFile(step), JSON.stringify(marker));
  }

  /** Forgets a step's index and partial download, so that the next attempt plans it afresh. */
  async discardStep(step: number): Promise<void> {
    await rm(this.indexFile(step), { force: true });
    await rm(this.partFile(step), { force: true });
  }

  async readIndex(step: number): Promise<string | null> {
    try {
      return await readFile(this.indexFile(step), 'utf8');
    } catch {
      return null;
    }
  }

  async writeIndex(step: number, text: string): Promise<void> {
    await writeFile(this.indexFile(step), text);
  }
}

/** Removes every run folder of a source but `keep` (older runs, abandoned partial runs). */
export async function removeRunFolders(downloadDir: string, keep?: number): Promise<void> {
  const keepName = keep === undefined ? null : runParts(keep).yyyymmddhh;
  let names: string[];
  try {
    names = await readdir(downloadDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (/^\d{10}$/.test(name) && name !== keepName) await rm(join(downloadDir, name), { recursive: true, force: true });
  }
}
