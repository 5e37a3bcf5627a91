import { describe, expect, it } from 'vitest';
import { clampFrameCap, parseFrameCap } from './frameCap.ts';

describe('the frame cap', () => {
  it('reads whole frame rates in range and nothing else', () => {
    expect(parseFrameCap('20')).toBe(20);
    expect(parseFrameCap(' 120 ')).toBe(120);
    for (const bad of [null, undefined, '', '0', '121', '12.5', '-5', 'fast', '1e2']) expect(parseFrameCap(bad), String(bad)).toBeNull();
  });
  it('clamps what the worker is asked for', () => {
    expect(clampFrameCap(0)).toBe(1);
    expect(clampFrameCap(500)).toBe(120);
    expect(clampFrameCap(30)).toBe(30);
  });
});
