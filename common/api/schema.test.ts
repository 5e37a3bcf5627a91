import { describe, expect, it } from 'vitest';
import { checkAnswer, ContractError, fits, schemaProblem } from './schema.ts';
import { POINT_ANSWER } from './forecast.ts';
import { INFO_ANSWER } from './account.ts';

const ITEM = {
  type: 'object',
  required: ['id', 'n'],
  properties: {
    id: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 },
    n: { type: 'integer', minimum: 0, maximum: 10 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    kind: { type: 'string', enum: ['a', 'b'] },
    note: { type: ['string', 'null'] },
  },
  additionalProperties: false,
} as const;

describe('schemaProblem', () => {
  it('accepts what fits, and names the first problem with its place', () => {
    expect(schemaProblem(ITEM, { id: 'abc', n: 3, tags: ['x'], kind: 'a', note: null })).toBeNull();
    expect(schemaProblem(ITEM, { n: 3 }, 'answer')).toBe('answer.id is missing');
    expect(schemaProblem(ITEM, { id: 'ABC', n: 3 })).toMatch(/value.id should match/);
    expect(schemaProblem(ITEM, { id: 'abcdefghi', n: 3 })).toMatch(/at most 8 characters/);
    expect(schemaProblem(ITEM, { id: 'a', n: 3.5 })).toBe('value.n should be integer, not 3.5');
    expect(schemaProblem(ITEM, { id: 'a', n: 11 })).toBe('value.n should be <= 10, not 11');
    expect(schemaProblem(ITEM, { id: 'a', n: -1 })).toBe('value.n should be >= 0, not -1');
    expect(schemaProblem(ITEM, { id: 'a', n: 1, tags: ['x', 2] })).toBe('value.tags[1] should be string, not 2');
    expect(schemaProblem(ITEM, { id: 'a', n: 1, tags: ['x', 'y', 'z'] })).toMatch(/at most 2 items/);
    expect(schemaProblem(ITEM, { id: 'a', n: 1, kind: 'c' })).toMatch(/one of "a", "b"/);
    expect(schemaProblem(ITEM, { id: 'a', n: 1, extra: 1 })).toBe('value.extra is not expected');
    expect(schemaProblem(ITEM, [])).toBe('value should be object, not array');
    expect(schemaProblem(ITEM, null)).toBe('value should be object, not null');
  });

  it('takes no infinity or NaN for a number (JSON has none)', () => {
    expect(schemaProblem({ type: 'number' }, Number.NaN)).toMatch(/should be number/);
    expect(schemaProblem({ type: 'number' }, Infinity)).toMatch(/should be number/);
    expect(schemaProblem({ type: 'number' }, 2)).toBeNull();
  });

  it('anyOf: one branch is enough', () => {
    expect(schemaProblem(INFO_ANSWER, { auth: false })).toBeNull();
    expect(schemaProblem(INFO_ANSWER, { auth: true })).toMatch(/token is missing/);
  });
});

describe('checkAnswer', () => {
  it('returns the typed answer, or throws a ContractError naming where it came from', () => {
    const body = { header: { product: 'demo', refTime: 0, lat: 1, lon: 2, step: 3, modelStep: 1, units: {} }, ts: [0], data: { temp: [280] } };
    expect(checkAnswer(POINT_ANSWER, body, '/forecast/point/demo').header.modelStep).toBe(1);
    expect(() => checkAnswer(POINT_ANSWER, { ...body, ts: 'soon' }, '/forecast/point/demo')).toThrow(ContractError);
    expect(() => checkAnswer(POINT_ANSWER, { ...body, data: { temp: ['x'] } }, '/p')).toThrow('Unexpected answer from /p: answer.data.temp[0] should be number or null, not "x"');
    expect(fits(POINT_ANSWER, body)).toBe(true);
    expect(fits(POINT_ANSWER, undefined)).toBe(false);
  });
});
