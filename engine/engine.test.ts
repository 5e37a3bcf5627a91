import { describe, expect, it } from 'vitest';
import { LinearAllocator, simdSupported } from './engine.ts';

const PAGE = 65536;

describe('LinearAllocator', () => {
  it('hands out aligned, disjoint ranges above the base and grows memory when full', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const allocator = new LinearAllocator(memory, 1000);
    const a = allocator.alloc(10);
    const b = allocator.alloc(40000);
    const c = allocator.alloc(40000); // past the first page
    expect(a).toBe(1008);
    expect([a, b, c].every((p) => p % 16 === 0)).toBe(true);
    expect(b).toBeGreaterThanOrEqual(a + 10);
    expect(c).toBeGreaterThanOrEqual(b + 40000);
    expect(memory.buffer.byteLength).toBe(2 * PAGE);
    expect(allocator.liveBytes).toBe(16 + 40000 + 40000);
  });

  it('reuses freed ranges first-fit and merges neighbours', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const allocator = new LinearAllocator(memory, 0);
    const blocks = [0, 1, 2, 3].map(() => allocator.alloc(1024));
    const top = allocator.highWater;
    allocator.release(blocks[1]);
    expect(allocator.alloc(1024)).toBe(blocks[1]);
    allocator.release(blocks[1]);
    allocator.release(blocks[2]);
    // Two neighbouring free blocks hold one allocation of twice the size without growing.
    expect(allocator.alloc(2048)).toBe(blocks[1]);
    expect(allocator.highWater).toBe(top);
    expect(memory.buffer.byteLength).toBe(PAGE);
  });

  it('gives the top of the heap back when its last range is freed', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const allocator = new LinearAllocator(memory, 64);
    const a = allocator.alloc(100);
    const b = allocator.alloc(100);
    const c = allocator.alloc(100);
    allocator.release(b);
    allocator.release(c); // merges with b and reaches the top
    expect(allocator.highWater).toBe(b);
    allocator.release(a);
    expect(allocator.highWater).toBe(64);
    expect(allocator.liveBytes).toBe(0);
    expect(allocator.alloc(300)).toBe(64);
  });

  it('refuses bad sizes, double frees and memory it cannot grow', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    const allocator = new LinearAllocator(memory, 0);
    expect(() => allocator.alloc(0)).toThrow(RangeError);
    expect(() => allocator.alloc(1.5)).toThrow(RangeError);
    const a = allocator.alloc(16);
    allocator.release(a);
    expect(() => allocator.release(a)).toThrow(/not allocated/);
    expect(() => allocator.alloc(3 * PAGE)).toThrow(/cannot grow/);
    expect(allocator.liveBytes).toBe(0);
  });
});

describe('simdSupported', () => {
  it('validates a v128 module in this runtime (Node 20 has WASM SIMD)', () => {
    expect(simdSupported()).toBe(true);
  });
});
