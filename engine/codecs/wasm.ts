/**
 * The codecs' hot loops run in the engine's WebAssembly module (engine/assembly/codecs/*), in the
 * same linear memory as the rest of the engine: a codec copies its input in, lays out its regions
 * with the engine's allocator, calls the kernel and releases every region before it returns.
 * Memory may grow on any alloc, so views into it are made after the last alloc of a step.
 */

import { EngineRegions, type Engine } from '../engine.ts';

/** What a codec needs of an Engine (engine/engine.ts): its raw exports, memory and allocator. */
export type CodecEngine = Pick<Engine, 'extension'>;

/** Where a codec lays out its regions: CodecRegions, or the GRIB decoder's own (engine/grib/decode.ts). */
export interface CodecMemory {
  readonly exports: WebAssembly.Exports;
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  copyIn(data: Uint8Array, slack: number): number;
}

/** A codec's own regions, when it is called outside a GRIB decode. */
export class CodecRegions extends EngineRegions implements CodecMemory {
  constructor(engine: CodecEngine) {
    super(engine.extension());
  }
}
