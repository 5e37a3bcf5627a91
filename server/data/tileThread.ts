/**
 * A thread of the tile pool (tilePool.ts): generates demo tile sets (server/demo/demoTiles.ts) and
 * renders stored runs' tiles from their native store (storedTileRender.ts), one task at a time,
 * and hands the gzip bytes over in one transferred buffer.
 */

import type { Engine } from '../../engine/engine.ts';
import { demoScratch, generateTileSet, type GeneratedTileSet, type TileSetTask } from '../demo/demoTiles.ts';
import { loadEngine } from '../ingest/engine.ts';
import { NativeFields, renderStoredTile, type StoredRenderTask } from './storedTileRender.ts';
import { serveTasks } from './workerPool.ts';

export type TileTask = TileSetTask | StoredRenderTask;
/** A demo tile set, or a stored tile's gzip bytes (null: the run has no data for it). */
export type TileTaskAnswer = GeneratedTileSet | { buffer: ArrayBuffer | null };

const scratch = demoScratch();
const natives = new NativeFields();
let engine: Promise<Engine | null> | null = null;

serveTasks<TileTask, TileTaskAnswer>(async (task) => {
  if (task.kind === 'demo') return generateTileSet(task.validTime, task.address, scratch);
  engine ??= loadEngine().catch(() => null);
  const gz = await renderStoredTile(task, natives, await engine);
  // An ArrayBuffer of its own to hand over (zlib's Buffer may be a view into a larger one).
  return { buffer: gz ? new Uint8Array(gz).buffer : null };
}, (answer) => (answer.buffer ? [answer.buffer] : []));
