/**
 * Test helper: loads the built engine module in Node (vitest), the way the render worker does in
 * the browser but from disk. The module is built by `npm run build:engine`.
 */

import { readFile, readdir, stat } from 'node:fs/promises';
import { Engine } from './engine.ts';

export type EngineTarget = 'release' | 'debug';

const ASSEMBLY_DIR = new URL('./assembly/', import.meta.url);

/** Compiles engine/build/<target>.wasm; refuses a missing build or one older than its sources. */
export async function compileEngine(target: EngineTarget = 'release'): Promise<WebAssembly.Module> {
  const wasmUrl = new URL(`./build/${target}.wasm`, import.meta.url);
  const built = await stat(wasmUrl).catch(() => null);
  if (!built) throw new Error(`engine/build/${target}.wasm is missing: run npm run build:engine`);
  for (const name of await readdir(ASSEMBLY_DIR)) {
    if (!name.endsWith('.ts')) continue;
    const source = await stat(new URL(name, ASSEMBLY_DIR));
    if (source.mtimeMs > built.mtimeMs) {
      throw new Error(`engine/build/${target}.wasm is older than engine/assembly/${name}: run npm run build:engine`);
    }
  }
  return WebAssembly.compile(await readFile(wasmUrl));
}

export async function createEngine(target: EngineTarget = 'release'): Promise<Engine> {
  return Engine.create(await compileEngine(target));
}

/** Wind (m/s) at a point: a westerly jet, trade winds and a few vortices, smooth everywhere. */
export function syntheticWind(lon: number, lat: number, phase = 0): [number, number] {
  const phi = (lat * Math.PI) / 180;
  let u = 12 * Math.sin(2 * phi) ** 2 * Math.sign(Math.abs(lat) - 30) + 3 * Math.cos(3 * phi);
  let v = 4 * Math.sin(((lon + phase) * Math.PI) / 45) * Math.cos(phi);
  for (const [clon, clat, strength] of VORTICES) {
    let dx = lon - (clon + phase);
    dx -= 360 * Math.round(dx / 360);
    const dy = lat - clat;
    const r2 = (dx * dx) / 400 + (dy * dy) / 225;
    const swirl = strength * Math.exp(-r2);
    u += -swirl * dy * 0.3;
    v += swirl * dx * 0.3;
  }
  return [u, v];
}

const VORTICES: [number, number, number][] = [
  [-150, 45, 2.5], [-60, -40, -2], [10, 55, 1.8], [80, -20, -2.2], [140, 15, 3], [175, -60, 1.5],
];
