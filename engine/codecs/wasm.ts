/**
 * The codecs' hot loops run in the engine's WebAssembly module (engine/assembly/codecs/*), in the
 * same linear memory as the rest of the engine: a codec copies its input in, lays out its regions
 * with the engine's allocator, calls the kernel and releases every region before it returns.
 * Memory may grow on any alloc, so views into it are made after the last alloc of a step.
 */

import type { Engine, LinearAllocator } from '../engine.ts';

/** What a codec needs of an Engine (engine/engine.ts): its raw exports, memory and allocator. */
export type CodecEngine = Pick<Engine, 'extension'>;

/** Where a codec lays out its regions: CodecRegions, or the GRIB decoder's own (engine/grib/decode.ts). */
export interface CodecMemory {
  readonly exports: WebAssembly.Exports;
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  copyIn(data: Uint8Array, slack: number): number;
}

export class CodecRegions implements CodecMemory {
  readonly exports: WebAssembly.Exports;
  readonly memory: WebAssembly.Memory;
  private readonly allocator: LinearAllocator;
  private readonly pointers: number[] = [];

  constructor(engine: CodecEngine) {
    ({ exports: this.exports, memory: this.memory, allocator: this.allocator } = engine.extension());
  }

  alloc(bytes: number): number {
    const ptr = this.allocator.alloc(Math.max(bytes, 1));
    this.pointers.push(ptr);
    return ptr;
  }

  /** Copies `data` in, followed by `slack` zero bytes. */
  copyIn(data: Uint8Array, slack: number): number {
    const ptr = this.alloc(data.length + slack);
    const heap = new Uint8Array(this.memory.buffer);
    heap.set(data, ptr);
    heap.fill(0, ptr + data.length, ptr + data.length + slack);
    return ptr;
  }

  releaseAll(): void {
    for (const ptr of this.pointers) this.allocator.release(ptr);
    this.pointers.length = 0;
  }
}
