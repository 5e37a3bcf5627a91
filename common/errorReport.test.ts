import { describe, expect, it } from 'vitest';
import { clip, errorIdOf, redactSecrets } from './errorReport.ts';

describe('error report helpers', () => {
  it.each([
    ['/users/v1/data/favs?token=abc.DEF-123&v=2', '/users/v1/data/favs?token=[redacted]&v=2'],
    ['https://x.test/?userToken=zz&authHash=yy', 'https://x.test/?userToken=[redacted]&authHash=[redacted]'],
    ['Authorization: Bearer eyJhbGciOi.x.y', 'Authorization: Bearer [redacted]'],
    ['{"token":"s3cr3t","a":1}', '{"token":"[redacted]","a":1}'],
    ['password=hunter2 and more', 'password=[redacted] and more'],
    ['nothing secret here: tokenizer=1', 'nothing secret here: tokenizer=1'],
    ['?uid=42&guid=7', '?uid=[redacted]&guid=7'],
  ])('redacts %s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('ids are stable and differ by content', () => {
    expect(errorIdOf('a', 1)).toBe(errorIdOf('a', 1));
    expect(errorIdOf('a', 1)).not.toBe(errorIdOf('a', 2));
    expect(errorIdOf('x')).toMatch(/^[a-z0-9]{1,7}$/);
  });

  it('clips long texts', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 4)).toBe('abc');
  });
});
