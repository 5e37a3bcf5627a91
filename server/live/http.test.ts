import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  backoffDelay, DEFAULT_RETRY, HttpStatusError, isRetryable, parseContentRange, parseRetryAfter, SourceHttp, TransientError,
} from './http.ts';
import { gribMessages } from './gribMessages.ts';
import { FixtureServer } from './fixtureServer.ts';
import { fakeTime } from './testing.ts';

describe('back-off', () => {
  it('doubles the ceiling per retry up to the maximum; full jitter takes a random share', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 1000, maxDelayMs: 10_000 };
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, policy, () => 0.999999))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(2000);
  });

  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 00:01:30 GMT', 90_000],
    ['Thu, 01 Jan 2025 00:00:00 GMT', 0],
    ['soon', undefined],
    [null, undefined],
  ])('Retry-After %j -> %j ms', (header, ms) => {
    expect(parseRetryAfter(header, Date.UTC(2026, 0, 1))).toBe(ms);
  });

  it.each([
    ['bytes 0-99/1234', { start: 0, end: 99, total: 1234 }],
    ['bytes 100-199/*', { start: 100, end: 199, total: null }],
    ['bytes */1234', { start: null, end: null, total: 1234 }],
    ['items 0-1/2', null],
  ])('Content-Range %j', (header, parsed) => {
    expect(parseContentRange(header)).toEqual(parsed);
  });

  it.each([
    [new HttpStatusError('u', 500), true],
    [new HttpStatusError('u', 503), true],
    [new HttpStatusError('u', 429), true],
    [new HttpStatusError('u', 404), false],
    [new HttpStatusError('u', 403), false],
    [new HttpStatusError('u', 416), false],
    [new TransientError('cut'), true],
    [new TypeError('fetch failed'), true],
    [Object.assign(new Error('reset'), { code: 'ECONNRESET' }), true],
    [new Error('disk full'), false],
  ])('%s retryable: %s', (error, retryable) => {
    expect(isRetryable(error)).toBe(retryable);
  });
});

/** A fake GRIB2 message of `length` bytes (what range validation checks). */
function message(length: number, fill: number): Uint8Array {
  const bytes = new Uint8Array(length).fill(fill);
  bytes.set([0x47, 0x52, 0x49, 0x42, 0, 0, 0, 2]);
  new DataView(bytes.buffer).setBigUint64(8, BigInt(length));
  bytes.set([0x37, 0x37, 0x37, 0x37], length - 4);
  return bytes;
}

describe('SourceHttp against a local server', () => {
  let server: FixtureServer;
  let dir: string;
  const file = new Uint8Array([...message(1000, 1), ...message(3000, 2), ...message(500, 3)]);

  beforeAll(async () => {
    server = await FixtureServer.start();
    server.put('/data/file.grib2', file);
    server.put('/data/file.idx', 'index text\n');
    dir = await mkdtemp(join(tmpdir(), 'isobar-http-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    server.clearFaults();
    server.clearLog();
  });

  const client = (options: ConstructorParameters<typeof SourceHttp>[0] = {}) => {
    const time = fakeTime(Date.UTC(2026, 0, 1));
    return { http: new SourceHttp({ now: time.now, sleep: time.sleep, random: () => 0.5, ...options }), time };
  };

  it('reads text; a missing file is null after one request, never retried', async () => {
    const { http, time } = client();
    expect(await http.text(`${server.url}/data/file.idx`)).toBe('index text\n');
    expect(await http.text(`${server.url}/data/nothing.idx`)).toBeNull();
    expect(server.requests('/data/nothing.idx')).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it('reads a whole binary body; a cut body is fetched again; a missing file is null', async () => {
    server.fault({ path: '/data/file.grib2', fault: { kind: 'truncate', afterBytes: 100 } });
    const { http } = client();
    expect(await http.bytes(`${server.url}/data/file.grib2`)).toEqual(file);
    expect(server.requests('/data/file.grib2').map((r) => r.completed)).toEqual([false, true]);
    expect(await http.bytes(`${server.url}/data/nothing.grib2`)).toBeNull();
  });

  it('never retries another 4xx', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'status', status: 403 }, times: Infinity });
    const { http, time } = client();
    await expect(http.text(`${server.url}/data/file.idx`)).rejects.toThrow(/HTTP 403/);
    expect(server.requests('/data/file.idx')).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it('retries 5xx with growing back-off', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'status', status: 503 }, times: 3 });
    const { http, time } = client({ retry: { baseDelayMs: 1000 } });
    expect(await http.text(`${server.url}/data/file.idx`)).toBe('index text\n');
    expect(server.requests('/data/file.idx').map((r) => r.status)).toEqual([503, 503, 503, 200]);
    // random() = 0.5 of ceilings 1 s, 2 s, 4 s.
    expect(time.sleeps).toEqual([500, 1000, 2000]);
    expect(http.stats.retries).toBe(3);
  });

  it('honours Retry-After on 429', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'status', status: 429, headers: { 'retry-after': '7' } } });
    const { http, time } = client();
    expect(await http.text(`${server.url}/data/file.idx`)).toBe('index text\n');
    expect(time.sleeps).toEqual([7000]);
  });

  it('gives up at once when Retry-After is beyond the limit', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'status', status: 503, headers: { 'retry-after': '86400' } } });
    const { http, time } = client();
    await expect(http.text(`${server.url}/data/file.idx`)).rejects.toThrow(/HTTP 503/);
    expect(time.sleeps).toEqual([]);
  });

  it('stops after the last attempt with the last error', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'status', status: 500 }, times: Infinity });
    const { http, time } = client({ retry: { attempts: 4 } });
    await expect(http.text(`${server.url}/data/file.idx`)).rejects.toThrow(/HTTP 500/);
    expect(server.requests('/data/file.idx')).toHaveLength(4);
    expect(time.sleeps).toHaveLength(3);
  });

  it('retries a connection reset', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'reset' }, times: 2 });
    const { http } = client();
    expect(await http.text(`${server.url}/data/file.idx`)).toBe('index text\n');
    expect(server.requests('/data/file.idx')).toHaveLength(3);
  });

  it('fetches one byte range, retrying a truncated body', async () => {
    server.fault({ path: '/data/file.grib2', fault: { kind: 'truncate', afterBytes: 1200 }, ranged: true });
    const { http } = client();
    const bytes = await http.range(`${server.url}/data/file.grib2`, { start: 1000, end: 3999 }, { validate: (b) => void gribMessages(b) });
    expect(bytes).toEqual(file.subarray(1000, 4000));
    expect(server.requests('/data/file.grib2').map((r) => [r.range, r.status, r.completed])).toEqual([
      ['bytes=1000-3999', 206, false], ['bytes=1000-3999', 206, true],
    ]);
  });

  it('reads an open-ended range to the end of the file', async () => {
    const { http } = client();
    expect(await http.range(`${server.url}/data/file.grib2`, { start: 4000, end: null })).toEqual(file.subarray(4000));
  });

  it('retries a stalled answer after the idle time-out', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'slow', delayMs: 1000 } });
    const { http } = client({ idleTimeoutMs: 100 });
    expect(await http.text(`${server.url}/data/file.idx`)).toBe('index text\n');
    expect(server.requests('/data/file.idx')).toHaveLength(2);
  });

  it('fetches again a range whose bytes are not whole GRIB messages', async () => {
    let calls = 0;
    const fetchStub: typeof fetch = async () => {
      calls++;
      const body = calls === 1 ? new Uint8Array(1000) : file.subarray(0, 1000);
      return new Response(body, { status: 206, headers: { 'content-range': 'bytes 0-999/4500' } });
    };
    const { http } = client({ fetch: fetchStub });
    expect(await http.range('http://x/f', { start: 0, end: 999 }, { validate: (b) => void gribMessages(b) })).toEqual(file.subarray(0, 1000));
    expect(calls).toBe(2);
  });

  it('refuses a server that ignores Range, without retrying', async () => {
    let calls = 0;
    const fetchStub: typeof fetch = async () => {
      calls++;
      return new Response(file, { status: 200 });
    };
    const { http } = client({ fetch: fetchStub });
    await expect(http.range('http://x/f', { start: 0, end: 999 })).rejects.toThrow(/ignored "Range: bytes=0-999"/);
    expect(calls).toBe(1);
  });

  it('continues a broken whole-file download with Range', async () => {
    server.fault({ path: '/data/file.grib2', fault: { kind: 'truncate', afterBytes: 1700 } });
    const { http } = client();
    const target = join(dir, 'whole.grib2');
    expect(await http.downloadFile(`${server.url}/data/file.grib2`, target)).toBe(file.length);
    expect(new Uint8Array(await readFile(target))).toEqual(file);
    expect(server.requests('/data/file.grib2').map((r) => [r.range, r.bytes])).toEqual([[null, 1700], ['bytes=1700-', file.length - 1700]]);
  });

  it('continues a part left by an earlier process, and restarts one that no longer fits', async () => {
    const { http } = client();
    const target = join(dir, 'resumed.grib2');
    await writeFile(`${target}.part`, file.subarray(0, 4000));
    await http.downloadFile(`${server.url}/data/file.grib2`, target);
    expect(new Uint8Array(await readFile(target))).toEqual(file);
    expect(server.requests('/data/file.grib2').map((r) => r.range)).toEqual(['bytes=4000-']);

    server.clearLog();
    const stale = join(dir, 'stale.grib2');
    await writeFile(`${stale}.part`, new Uint8Array(file.length + 10));
    await http.downloadFile(`${server.url}/data/file.grib2`, stale);
    expect(new Uint8Array(await readFile(stale))).toEqual(file);
    expect(server.requests('/data/file.grib2').map((r) => [r.range, r.status])).toEqual([[`bytes=${file.length + 10}-`, 416], [null, 200]]);
  });

  it('stops waiting when aborted, with no further request', async () => {
    server.fault({ path: '/data/file.idx', fault: { kind: 'status', status: 503 }, times: Infinity });
    const controller = new AbortController();
    const http = new SourceHttp({
      sleep: async () => {
        controller.abort(new Error('closing'));
        throw controller.signal.reason;
      },
    });
    await expect(http.text(`${server.url}/data/file.idx`, controller.signal)).rejects.toThrow('closing');
    expect(server.requests('/data/file.idx')).toHaveLength(1);
  });
});
