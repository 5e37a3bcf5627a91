import { describe, expect, it } from 'vitest';
import { Lazy } from './lazy.ts';

describe('Lazy', () => {
  it('makes its value on the first get only, and says whether it was made', () => {
    let made = 0;
    const lazy = new Lazy(() => ({ n: ++made }));
    expect(lazy.made).toBeNull();
    expect(made).toBe(0);
    const first = lazy.get();
    expect(first).toEqual({ n: 1 });
    expect(lazy.get()).toBe(first);
    expect(lazy.made).toBe(first);
    expect(made).toBe(1);
  });

  it('tries again after a make that threw', () => {
    let calls = 0;
    const lazy = new Lazy(() => {
      if (++calls === 1) throw new Error('context busy');
      return calls;
    });
    expect(() => lazy.get()).toThrow('context busy');
    expect(lazy.made).toBeNull();
    expect(lazy.get()).toBe(2);
  });
});
