import { describe, expect, it } from 'vitest';
import { BADGE_MAX, badgeText } from './menuBadge.ts';

describe('menu badge', () => {
  it.each([
    [0, null],
    [-1, null],
    [Number.NaN, null],
    [1, '1'],
    [9, '9'],
    [42, '42'],
    [BADGE_MAX, '99'],
    [BADGE_MAX + 1, '99+'],
    [12345, '99+'],
    [Number.POSITIVE_INFINITY, null],
  ])('%s new notifications -> %s', (count, text) => {
    expect(badgeText(count)).toBe(text);
  });
});
