/**
 * The engine's WASM module in Node: the ingest decodes and regrids with it, the server renders
 * tiles on request with it. One instance per process, created on first use.
 */

import { readFile } from 'node:fs/promises';
import { Engine } from '../../engine/engine.ts';

const RELEASE_WASM = new URL('../../engine/build/release.wasm', import.meta.url);

let engine: Promise<Engine> | null = null;

/** The process's engine (engine/build/release.wasm, built by `npm run build:engine`). */
export function loadEngine(): Promise<Engine> {
  engine ??= readFile(RELEASE_WASM)
    .catch((cause: unknown) => {
      throw new Error('engine/build/release.wasm is missing: run npm run build:engine', { cause });
    })
    .then((bytes) => WebAssembly.compile(bytes))
    .then((module) => Engine.create(module))
    .catch((error: unknown) => {
      engine = null;
      throw error;
    });
  return engine;
}
