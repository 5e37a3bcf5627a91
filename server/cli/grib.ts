/**
 * `npm run grib -- inventory <file>`: one JSON line per field of a GRIB2 file, with the keys of
 * ../shared/data/expected-eccodes.json (ecCodes' names) in the same order, so a line can be
 * compared with ecCodes' view of the field:
 *
 *   {"edition":2,"centre":"kwbc","shortName":"gh",...,"min":4674.745,"max":5948.625,"mean":5497.87,"first5":[...]}
 *
 * Values are decoded (engine/grib/summary.ts: min, max, mean over the values present; first5
 * with null for missing).
 * A bad file prints one line "grib: <what is wrong>" on stderr and exits with code 1.
 * Needs the engine build (npm run build:engine).
 */

import { readFile } from 'node:fs/promises';
import { Engine } from '../../engine/engine.ts';
import { decodeField, eccodesSummary, GribError, inventory } from '../../engine/grib/index.ts';

const USAGE = 'usage: npm run grib -- inventory <file.grib2>';
const WASM = new URL('../../engine/build/release.wasm', import.meta.url);

async function loadEngine(): Promise<Engine> {
  const wasm = await readFile(WASM).catch(() => {
    throw new Error('engine/build/release.wasm is missing: run npm run build:engine');
  });
  return Engine.create(await WebAssembly.compile(wasm));
}

async function main(args: string[]): Promise<number> {
  const [command, path, ...rest] = args;
  if (command !== 'inventory' || !path || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const bytes = await readFile(path).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength), (error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const fields = inventory(bytes);
  const engine = await loadEngine();
  for (const info of fields) {
    const values = await decodeField(engine, bytes, info);
    process.stdout.write(`${JSON.stringify(eccodesSummary(info, values))}\n`);
  }
  return 0;
}

// `npm run grib -- inventory f | head`: a closed pipe ends the listing, it is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`grib: ${error instanceof GribError ? message : message.split('\n')[0]}`);
  process.exitCode = 1;
}
