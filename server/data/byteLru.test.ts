import { describe, expect, it } from 'vitest';
import { ByteLru } from './byteLru.ts';

describe('ByteLru', () => {
  it('evicts the least recently used entries past its byte budget', () => {
    const lru = new ByteLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A'); // now the most recent
    lru.set('c', 'C', 4); // 12 > 10: b goes
    expect(lru.get('b')).toBeUndefined();
    expect([lru.size, lru.bytes]).toEqual([2, 8]);
  });

  it('counts an entry that grows, and evicts for it', () => {
    const lru = new ByteLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    lru.grow('b', 1);
    expect(lru.bytes).toBe(9);
    lru.grow('b', 2); // 11: a, the oldest, goes
    expect(lru.get('a')).toBeUndefined();
    expect([lru.size, lru.bytes]).toEqual([1, 7]);
    lru.grow('gone', 100);
    expect(lru.bytes).toBe(7);
  });

  it('keeps nothing heavier than its budget, replaces a key, and drops a prefix', () => {
    const lru = new ByteLru<string>(10);
    lru.set('big', 'X', 11);
    expect(lru.size).toBe(0);
    lru.set('run1/a', 'A', 2);
    lru.set('run1/a', 'A2', 3);
    lru.set('run2/a', 'B', 3);
    expect([lru.size, lru.bytes]).toEqual([2, 6]);
    lru.deletePrefix('run1/');
    expect([lru.get('run1/a'), lru.get('run2/a'), lru.bytes]).toEqual([undefined, 'B', 3]);
  });

  it('keeps at most maxEntries entries where given, the oldest going first', () => {
    const lru = new ByteLru<string>(100, 2);
    lru.set('a', 'A', 0);
    lru.set('b', 'B', 0);
    lru.get('a');
    lru.set('c', 'C', 0); // three entries: b, the oldest, goes
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['A', undefined, 'C']);
  });
});
