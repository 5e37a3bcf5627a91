/**
 * An object read by ranges through a small block cache: how the serving side reads a point store
 * (server/ingest/points.ts ByteSource) in object storage. A point forecast reads the header once and
 * then a few records of a few kilobytes; each read fetches the fixed-size blocks it touches (one
 * ranged GET each, shared by concurrent readers) and keeps the last few, so neighbouring places and
 * repeated requests cost no further GET and no request downloads a whole store.
 */

import type { ByteSource } from '../ingest/points.ts';
import { notFoundError, type ObjectStore } from './objectStore.ts';

/** Bytes per ranged GET: a 0.5° GFS record pair is about 12 kB, the header a few kB. */
export const RANGE_BLOCK_BYTES = 64 * 1024;
/** Blocks kept per object (2 MB). */
const CACHED_BLOCKS = 32;

export class ObjectRangeSource implements ByteSource {
  /** Blocks by index, least recently used first; a pending GET is kept too so concurrent readers share it. */
  private readonly blocks = new Map<number, Promise<Buffer>>();
  private objectSize: Promise<number> | null = null;

  constructor(private readonly store: ObjectStore, private readonly key: string, private readonly blockBytes = RANGE_BLOCK_BYTES) {}

  get name(): string {
    return `${this.store.description} ${this.key}`;
  }

  size(): Promise<number> {
    this.objectSize ??= this.store.head(this.key).then((info) => {
      if (!info) throw notFoundError(this.key);
      return info.size;
    });
    return this.objectSize;
  }

  async read(into: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    const first = Math.floor(position / this.blockBytes);
    const last = Math.floor((position + length - 1) / this.blockBytes);
    let copied = 0;
    for (let b = first; b <= last && length > 0; b++) {
      const block = await this.block(b);
      const from = position + copied - b * this.blockBytes;
      const n = Math.min(block.length - from, length - copied);
      if (n <= 0) break;
      into.set(block.subarray(from, from + n), offset + copied);
      copied += n;
      if (block.length < this.blockBytes) break; // the object's end
    }
    return copied;
  }

  private block(index: number): Promise<Buffer> {
    let block = this.blocks.get(index);
    if (block) {
      this.blocks.delete(index);
    } else {
      block = this.store.getRange(this.key, index * this.blockBytes, this.blockBytes).then((bytes) => {
        if (!bytes) throw notFoundError(this.key);
        return bytes;
      });
      block.catch(() => this.blocks.delete(index));
      if (this.blocks.size >= CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    }
    this.blocks.set(index, block);
    return block;
  }

  async close(): Promise<void> {
    this.blocks.clear();
  }
}
