import { describe, expect, it } from 'vitest';
import { isForeignEmbed, missingTechnologies } from './guards.ts';

const OWN = 'https://isobar.test';

function framed(opts: { top?: 'same' | 'foreign' | 'self'; ancestors?: string[]; referrer?: string }) {
  const self = {};
  const location = {
    origin: OWN,
    ...(opts.ancestors ? { ancestorOrigins: { length: opts.ancestors.length, item: (i: number) => opts.ancestors![i] } } : {}),
  };
  const top = opts.top === 'self' ? self : {
    get location() {
      if (opts.top === 'foreign') throw new DOMException('Blocked a frame', 'SecurityError');
      return { origin: OWN };
    },
  };
  return { self, top, location, document: { referrer: opts.referrer ?? '' } } as never;
}

describe('foreign frame (SPEC §2 unlegal embed)', () => {
  it.each([
    ['not framed', { top: 'self' }, false],
    ['framed by our own page (ancestorOrigins)', { top: 'same', ancestors: [OWN] }, false],
    ['framed by another site (ancestorOrigins)', { top: 'foreign', ancestors: ['https://copycat.example'] }, true],
    ['our frame inside another site', { top: 'foreign', ancestors: [OWN, 'https://copycat.example'] }, true],
    ['framed by our own page (top readable)', { top: 'same' }, false],
    ['top unreadable, referrer of another site', { top: 'foreign', referrer: 'https://copycat.example/page' }, true],
    ['top unreadable, referrer ours', { top: 'foreign', referrer: `${OWN}/embed` }, false],
    ['top unreadable, no referrer', { top: 'foreign' }, true],
  ] as const)('%s -> %s', (_name, opts, expected) => {
    expect(isForeignEmbed(framed(opts as never))).toBe(expected);
  });
});

describe('browser support (SPEC §5)', () => {
  it.each([
    [{ ResizeObserver: class {}, indexedDB: {} }, []],
    [{ indexedDB: {} }, ['ResizeObserver']],
    [{ ResizeObserver: class {} }, ['IndexedDB']],
    [{ ResizeObserver: undefined, indexedDB: null }, ['ResizeObserver', 'IndexedDB']],
  ])('%j lacks %j', (win, missing) => {
    expect(missingTechnologies(win)).toEqual(missing);
  });
});
