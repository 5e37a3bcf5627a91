/**
 * npm run ingest -- <file|dir|url>... [options]
 *
 * Loads GRIB2 files into the data directory the server reads (server/ingest/layout.ts): each file,
 * every GRIB2 file under a directory (grouped into runs by product and reference time, each run
 * published on its own, oldest first), or an http(s) URL (downloaded to a temporary file first).
 *
 *   --product <ident>        catalogue product (default: inferred from the files)
 *   --data-dir <dir>         default ISOBAR_DATA_DIR, else var/data
 *   --no-publish             keep the run staged: a later ingest adds steps and publishes
 *   --point-resolution <deg> point-series grid spacing (default: the model's, not finer than 0.5°)
 *   --prerender <z>          highest data zoom written now for surface layers (default: the product's free zoom)
 *   --prerender-levels <z>   the same for pressure levels (default: two below); higher zooms are rendered on request
 *
 * Exit status 0 when every run was loaded, 1 when anything failed (each failure is printed with the
 * file it concerns), 2 for bad usage.
 */

import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { hourStamp } from '../../common/minifest.ts';
import { loadEngine } from './engine.ts';
import { engineGribReader } from './fields.ts';
import { groupRuns, startsWithGrib, walk } from './inputs.ts';
import { ingestFiles, type IngestProgress, type IngestResult } from './ingest.ts';
import { dataDirFromEnv } from './layout.ts';
import { storageFromEnv } from '../storage/fromEnv.ts';

const USAGE = `usage: npm run ingest -- <file|dir|url>... [--product <ident>] [--data-dir <dir>] [--no-publish]
       [--point-resolution <deg>] [--prerender <z>] [--prerender-levels <z>]`;

class UsageError extends Error {}

function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

async function download(url: string, dir: string, log: (line: string) => void): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new Error(`${url}: download failed: ${(cause as Error).message}`, { cause });
  }
  if (!response.ok || !response.body) throw new Error(`${url}: download failed: HTTP ${response.status}`);
  const name = basename(new URL(url).pathname) || 'download.grib2';
  const path = join(dir, name);
  log(`downloading ${url}`);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(path));
  return path;
}

function progressPrinter(stream: NodeJS.WriteStream): { update(p: IngestProgress): void; done(): void } {
  let last = 0;
  let open = false;
  return {
    update(p) {
      const line = `  [${p.done}/${p.total}] ${p.phase}${p.message ? `: ${p.message}` : ''}`;
      if (stream.isTTY) {
        stream.write(`\r\x1b[K${line.slice(0, (stream.columns || 120) - 1)}`);
        open = true;
      } else if (Date.now() - last > 1000 || p.phase !== 'step') {
        stream.write(`${line}\n`);
        last = Date.now();
      }
    },
    done() {
      if (open) stream.write('\r\x1b[K');
      open = false;
    },
  };
}

function summary(r: IngestResult): string {
  const hours = r.steps.length > 6 ? `${r.steps.slice(0, 3).join(', ')} ... ${r.steps.slice(-2).join(', ')}` : r.steps.join(', ');
  const published = r.runId ? `published as ${r.runId}` : 'staged (not published)';
  return `${r.product} run ${hourStamp(r.refTime)}: ${r.steps.length} step(s) (+${hours} h), ${r.variables.length} layers, ${r.tiles} tiles in ${(r.ms / 1000).toFixed(1)} s, ${published}`;
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} needs a number, not "${value}"`);
  return n;
}

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        product: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-publish': { type: 'boolean' },
        'point-resolution': { type: 'string' },
        prerender: { type: 'string' },
        'prerender-levels': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    err.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.values.help) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  if (!args.positionals.length) {
    err.write(`Nothing to ingest.\n${USAGE}\n`);
    return 2;
  }
  const log = (line: string) => out.write(`${line}\n`);
  const failures: string[] = [];
  const temporary = await mkdtemp(join(tmpdir(), 'isobar-ingest-'));
  try {
    const product = args.values.product;
    if (product !== undefined && (!Object.prototype.hasOwnProperty.call(PRODUCTS, product) || PRODUCTS[product].demo)) {
      throw new UsageError(`Unknown product "${product}"; the catalogue has ${Object.keys(PRODUCTS).filter((p) => !PRODUCTS[p].demo).join(', ')}`);
    }
    const pointResolution = numberOption(args.values['point-resolution'], 'point-resolution');
    const surface = numberOption(args.values.prerender, 'prerender');
    const levels = numberOption(args.values['prerender-levels'], 'prerender-levels');
    const dataDir = args.values['data-dir'] ? resolve(args.values['data-dir']) : dataDirFromEnv();
    // Runs are built in dataDir and published where the server reads them (ISOBAR_STORAGE_URL, else dataDir).
    const storage = await storageFromEnv(dataDir);

    const files: string[] = [];
    for (const input of args.positionals) {
      if (isUrl(input)) {
        try {
          files.push(await download(input, temporary, log));
        } catch (error) {
          failures.push((error as Error).message);
        }
        continue;
      }
      const info = await stat(input).catch(() => null);
      if (!info) {
        failures.push(`${input}: no such file or directory`);
      } else if (info.isDirectory()) {
        const found = await walk(input);
        const gribs: string[] = [];
        for (const path of found) if (await startsWithGrib(path)) gribs.push(path);
        log(`${input}: ${gribs.length} GRIB2 file(s) of ${found.length}`);
        if (!gribs.length) failures.push(`${input}: holds no GRIB2 file`);
        files.push(...gribs);
      } else if (!(await startsWithGrib(input))) {
        failures.push(`${input}: not a GRIB2 file (it does not start with "GRIB")`);
      } else {
        files.push(input);
      }
    }

    const reader = engineGribReader(await loadEngine());
    const groups = await groupRuns(files, reader, product, failures, log);
    const printer = progressPrinter(err);
    for (const group of groups) {
      try {
        const result = await ingestFiles(group.files, {
          dataDir, storage, product: group.product, publish: !args.values['no-publish'], pointResolution,
          prerender: surface !== undefined || levels !== undefined ? { surface, levels } : undefined,
          onProgress: (p) => printer.update(p),
        });
        printer.done();
        log(summary(result));
      } catch (error) {
        printer.done();
        failures.push(`${group.product} run ${hourStamp(group.refTime)}: ${(error as Error).message}`);
      }
    }
    if (groups.length) log(`data directory: ${dataDir}${storage.localRoot === null ? `, published to ${storage.description}` : ''}`);
    storage.close?.();
  } catch (error) {
    if (error instanceof UsageError) {
      err.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    failures.push((error as Error).message);
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  for (const failure of failures) err.write(`error: ${failure}\n`);
  return failures.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  }, (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
