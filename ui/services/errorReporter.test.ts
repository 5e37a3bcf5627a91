import { describe, expect, it, vi } from 'vitest';
import type { ErrorReport } from '../../common/errorReport.ts';
import { ERROR_REPORTS_MAX } from '../../common/limits.ts';
import { createErrorReporter, fromErrorEvent, isReportedRejection, type ReportContext } from './errorReporter.ts';

const CONTEXT: ReportContext = {
  overlay: 'wind', url: 'https://isobar.test/?token=secret123&x=1', platform: 'desktop', device: 'desktop',
  latestBcast: ['startup', 'a', 'b', 'c', 'd', 'e'], network: '4g', hidden: false,
};

function setup(overrides: Partial<Parameters<typeof createErrorReporter>[0]> = {}, context: Partial<ReportContext> = {}) {
  const sent: ErrorReport[] = [];
  let offline = false;
  const reporter = createErrorReporter({
    send: async (r) => sent.push(r),
    context: () => ({ ...CONTEXT, ...context }),
    offline: () => offline,
    inFrame: false,
    version: '1.2.3',
    now: () => 1_700_000_000_000,
    startedAt: 1_700_000_000_000 - 90_000,
    ...overrides,
  });
  return { reporter, sent, setOffline: (v: boolean) => { offline = v; } };
}

describe('error reporter (SPEC §7, §8)', () => {
  it('posts the fields of SPEC §7', () => {
    const { reporter, sent } = setup();
    expect(reporter.report({ type: 'error', msg: 'x is not defined', script: 'https://isobar.test/a.js', line: 3, col: 7, stack: 'ReferenceError: x\n at a.js:3:7' })).toBe('sent');
    expect(sent).toHaveLength(1);
    const r = sent[0];
    expect(Object.keys(r).sort()).toEqual([
      'col', 'device', 'errorID', 'latestBcast', 'line', 'msg', 'network', 'overlay', 'platform', 'repeated', 'runningMinutes',
      'runningPhase', 'script', 'stack', 'target', 'timestamp', 'type', 'url', 'ver',
    ]);
    expect(r).toMatchObject({
      overlay: 'wind', runningPhase: '1_loading', timestamp: 1_700_000_000_000, runningMinutes: 1.5, type: 'error', msg: 'x is not defined',
      repeated: 0, ver: '1.2.3', target: 'index', platform: 'desktop', device: 'desktop', network: '4g', line: 3, col: 7,
    });
    // SPEC §9: the broadcast log keeps the last 5 events.
    expect(r.latestBcast).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.errorID).toMatch(/^[a-z0-9]+$/);
  });

  it('redacts secrets in the URL before it leaves the page', () => {
    const { reporter, sent } = setup();
    reporter.report({ msg: 'Request failed for URL /users?token=abc.def&uid=42' });
    expect(sent[0].url).toBe('https://isobar.test/?token=[redacted]&x=1');
    expect(sent[0].msg).toBe('Request failed for URL /users?token=[redacted]&uid=[redacted]');
  });

  // Occurrence n of the same error: the first goes out, then only every 10th repeat up to 50.
  const SENT_OCCURRENCES = [1, 11, 21, 31, 41, 51];
  it.each(Array.from({ length: 70 }, (_, i) => i + 1))('occurrence %i of one error', (n) => {
    const { reporter, sent } = setup();
    const outcomes = Array.from({ length: n }, () => reporter.report({ msg: 'same' }));
    const expected = SENT_OCCURRENCES.includes(n) ? 'sent' : 'repeatSkipped';
    expect(outcomes[n - 1]).toBe(expected);
    expect(sent).toHaveLength(SENT_OCCURRENCES.filter((k) => k <= n).length);
    if (expected === 'sent' && n > 1) {
      expect(sent.at(-1)).toMatchObject({ msg: 'same (repeated)', repeated: n - 1 });
    }
  });

  it('counts repeats per error', () => {
    const { reporter, sent } = setup();
    for (let i = 0; i < 10; i++) reporter.report({ msg: 'a' });
    reporter.report({ msg: 'b' });
    reporter.report({ msg: 'a' });
    expect(sent.map((r) => [r.msg, r.repeated])).toEqual([['a', 0], ['b', 0], ['a (repeated)', 10]]);
  });

  it(`stops after ${ERROR_REPORTS_MAX} reports`, () => {
    const { reporter, sent } = setup();
    for (let i = 0; i < ERROR_REPORTS_MAX; i++) expect(reporter.report({ msg: `error ${i}` })).toBe('sent');
    expect(reporter.report({ msg: 'one more' })).toBe('capReached');
    expect(sent).toHaveLength(ERROR_REPORTS_MAX);
    expect(reporter.sent).toBe(ERROR_REPORTS_MAX);
  });

  it.each([
    ['inside a frame', { inFrame: true }, {}, 'inFrame'],
    ['status 0', {}, { status: 0 }, 'status0'],
  ] as const)('skips %s', (_name, deps, input, outcome) => {
    const { reporter, sent } = setup(deps);
    expect(reporter.report({ msg: 'x', ...input })).toBe(outcome);
    expect(sent).toHaveLength(0);
  });

  it('skips while offline', () => {
    const { reporter, sent, setOffline } = setup();
    setOffline(true);
    expect(reporter.report({ msg: 'x' })).toBe('offline');
    setOffline(false);
    expect(reporter.report({ msg: 'x' })).toBe('sent');
    // The skipped one was not counted as an occurrence.
    expect(sent[0].repeated).toBe(0);
  });

  it('reports an HTTP error status other than 0', () => {
    const { reporter } = setup();
    expect(reporter.report({ msg: 'Request failed for URL /x', status: 500 })).toBe('sent');
  });

  it.each([
    ['1_loading', false, '1_loading'],
    ['2_dependenciesResolved', false, '2_dependenciesResolved'],
    ['3_redrawFinished', false, '3_redrawFinished'],
    ['3_redrawFinished', true, 'documentIsHidden'],
  ] as const)('phase %s, hidden %s -> %s (SPEC §4)', (phase, hidden, expected) => {
    const { reporter, sent } = setup({}, { hidden });
    reporter.setPhase(phase);
    reporter.report({ msg: 'x' });
    expect(sent[0].runningPhase).toBe(expected);
    expect(reporter.phase).toBe(expected);
  });

  it('a report that cannot be posted is dropped quietly', async () => {
    const { reporter } = setup({ send: () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(reporter.report({ msg: 'x' })).toBe('sent');
    await Promise.resolve();
  });

  it.each([
    [new ReferenceError('x is not defined'), true],
    [Object.assign(new Error('y'), { name: 'ReferenceError' }), true],
    [new TypeError('z'), false],
    ['text', false],
    [null, false],
  ])('unhandled rejection %s is reported: %s', (reason, expected) => {
    expect(isReportedRejection(reason)).toBe(expected);
  });

  it('listens to window errors and reference-error rejections', () => {
    const { reporter, sent } = setup();
    const target = new EventTarget();
    const detach = reporter.attach(target as never);
    target.dispatchEvent(Object.assign(new Event('error'), { message: 'boom', filename: 'a.js', lineno: 1, colno: 2, error: new Error('boom') }));
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new ReferenceError('q is not defined') }));
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new TypeError('not this one') }));
    detach();
    target.dispatchEvent(Object.assign(new Event('error'), { message: 'after detach' }));
    expect(sent.map((r) => [r.type, r.msg])).toEqual([['error', 'boom'], ['unhandledrejection', 'ReferenceError: q is not defined']]);
  });

  it('fromErrorEvent falls back to the error object', () => {
    const error = new Error('inner');
    expect(fromErrorEvent({ message: '', filename: 'f.js', lineno: 5, colno: 6, error })).toMatchObject({ msg: 'inner', script: 'f.js', line: 5, col: 6 });
  });

  it('posts JSON to /sedlina/errors by default', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      const reporter = createErrorReporter({ context: () => CONTEXT, offline: () => false, inFrame: false, version: '1' });
      reporter.report({ msg: 'x' });
      expect(fetchMock).toHaveBeenCalledWith('/sedlina/errors', expect.objectContaining({ method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' } }));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
