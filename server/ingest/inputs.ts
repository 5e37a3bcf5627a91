/**
 * Finding GRIB2 input and grouping it into runs: shared by `npm run ingest` (cli.ts) and the
 * sample loader the server runs at start-up (samples.ts).
 */

import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { hourStamp } from '../../common/minifest.ts';
import { skipBulletinFraming } from '../../engine/grib/bulletin.ts';
import { inferProduct, matchFields, runRefTimeOf, type GribReader } from './fields.ts';

/** Bytes read to find "GRIB" behind a WMO bulletin header (SOH line, sequence number, heading). */
const HEAD_BYTES = 128;

/** Whether a file starts with the GRIB magic bytes, perhaps behind a WMO bulletin header (NWS, GTS files). */
export async function startsWithGrib(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    const at = skipBulletinFraming(head, 0, bytesRead);
    return at + 4 <= bytesRead && String.fromCharCode(...head.subarray(at, at + 4)) === 'GRIB';
  } finally {
    await handle.close();
  }
}

/** Every file under a directory, in name order. */
export async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export interface RunGroup {
  product: string;
  refTime: number;
  files: string[];
}

/** Groups files into runs by product and reference time; files that cannot be grouped are reported. */
export async function groupRuns(files: string[], reader: GribReader, product: string | undefined, failures: string[], log: (line: string) => void): Promise<RunGroup[]> {
  const groups = new Map<string, RunGroup>();
  for (const path of files) {
    try {
      const infos = reader.inventory(new Uint8Array(await readFile(path)));
      const { matched } = matchFields(infos, 0);
      if (!matched.length) {
        const names = [...new Set(infos.map((i) => `${i.shortName}@${i.typeOfLevel}`))].slice(0, 8).join(', ');
        failures.push(`${path}: no field maps to a catalogue variable (${infos.length} fields: ${names})`);
        continue;
      }
      const p = product ? PRODUCTS[product] : inferProduct(matched, path);
      if (!p) throw new Error(`Unknown product "${product}"`);
      const refTime = runRefTimeOf(p, matched[0].info);
      const key = `${p.ident}/${refTime}`;
      const group = groups.get(key) ?? { product: p.ident, refTime, files: [] };
      group.files.push(path);
      groups.set(key, group);
    } catch (error) {
      failures.push((error as Error).message.startsWith(path) ? (error as Error).message : `${path}: ${(error as Error).message}`);
    }
  }
  const list = [...groups.values()].sort((a, b) => a.product.localeCompare(b.product) || a.refTime - b.refTime);
  for (const g of list) log(`${g.product} run ${hourStamp(g.refTime)}: ${g.files.length} file(s)`);
  return list;
}
