/**
 * A thread of the demo tile pool (demoTiles.ts DemoTileStore, server/data/workerPool.ts): makes
 * one tile set per task and hands its gzip bytes over in one transferred buffer.
 */

import { serveTasks } from '../data/workerPool.ts';
import { demoScratch, generateTileSet, type GeneratedTileSet, type TileSetTask } from './demoTiles.ts';

const scratch = demoScratch();

serveTasks<TileSetTask, GeneratedTileSet>(
  ({ validTime, address }) => generateTileSet(validTime, address, scratch),
  (output) => [output.buffer],
);
