/**
 * The one HTTP layer of the live sources: GET text, HEAD, one byte range, and whole files that
 * resume where a broken transfer stopped. Every call retries network errors, stalled transfers,
 * truncated or corrupt bodies, 5xx and 429 with exponential back-off and full jitter, honouring
 * Retry-After; it never retries any other 4xx. Cancelled by the caller's AbortSignal.
 *
 * Byte ranges go one per request (`Range: bytes=a-b`): S3 (the NOAA and ECMWF mirrors) answers
 * multi-range requests with the whole object, so callers merge adjacent ranges instead.
 */

import { open, rename, stat } from 'node:fs/promises';
import { SILENT_LOGGER, type SourceLogger } from './source.ts';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Back-off before the second try; doubles each time (full jitter: a random share of it is waited). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this ends the call (the scheduler tries again next round). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 2_000, maxDelayMs: 120_000, maxRetryAfterMs: 15 * 60_000 };

export interface HttpOptions {
  fetch?: typeof fetch;
  sleep?: Sleep;
  /** Uniform in [0, 1); the jitter's source. */
  random?: () => number;
  now?: () => number;
  retry?: Partial<RetryPolicy>;
  /** A request that receives nothing (headers or body bytes) for this long is abandoned and retried. */
  idleTimeoutMs?: number;
  /** Least time between the starts of two requests (NOMADS blocks clients above ~120 a minute). */
  minRequestIntervalMs?: number;
  userAgent?: string;
  log?: SourceLogger;
}

export interface ByteRange {
  start: number;
  /** Inclusive; null reads to the end of the file. */
  end: number | null;
}

/** An HTTP status that ended a call; `retryAfterMs` is set when the server sent Retry-After. */
export class HttpStatusError extends Error {
  override name = 'HttpStatusError';
  constructor(readonly url: string, readonly status: number, detail = '', readonly retryAfterMs?: number) {
    super(`HTTP ${status} for ${url}${detail ? `: ${detail}` : ''}`);
  }
}

/** A failure worth another try: a stalled or truncated transfer, a body that is not what was asked. */
export class TransientError extends Error {
  override name = 'TransientError';
}

export const realSleep: Sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) {
    reject(signal.reason);
    return;
  }
  const onAbort = () => {
    clearTimeout(timer);
    reject(signal?.reason);
  };
  const timer = setTimeout(() => {
    signal?.removeEventListener('abort', onAbort);
    resolve();
  }, ms);
  signal?.addEventListener('abort', onAbort, { once: true });
});

// Node's (undici's) socket-level failures.
const NETWORK_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED',
]);

/** Whether another try may succeed: network errors, stalls, bad bodies, 5xx and 429; never another 4xx. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof HttpStatusError) return error.status === 429 || error.status >= 500;
  if (error instanceof TransientError) return true;
  if (error instanceof Error && error.name === 'GribFormatError') return true;
  // fetch() reports every network failure, a reset mid-body included, as a TypeError.
  if (error instanceof TypeError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/**
 * Exponential back-off with full jitter: a uniform share of min(max, base * 2^retry)
 * (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(random() * ceiling);
}

/** Retry-After (RFC 9110 §10.2.3) in ms from now: delay-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** `bytes 0-99/1234` (RFC 9110 §14.4); `*` parts are null. */
export function parseContentRange(value: string | null): { start: number | null; end: number | null; total: number | null } | null {
  const match = value === null ? null : /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i.exec(value.trim());
  if (!match) return null;
  const num = (s: string | undefined) => (s === undefined || s === '*' ? null : Number(s));
  return { start: num(match[1]), end: num(match[2]), total: num(match[3]) };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // The connection is going away anyway.
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

type Touch = () => void;

export interface HttpStats {
  /** Requests sent, retries included. */
  requests: number;
  retries: number;
  /** Body bytes received. */
  bytes: number;
}

export class SourceHttp {
  readonly stats: HttpStats = { requests: 0, retries: 0, bytes: 0 };
  private readonly fetch: typeof fetch;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly policy: RetryPolicy;
  private readonly idleTimeoutMs: number;
  private readonly minRequestIntervalMs: number;
  private readonly headers: Record<string, string>;
  private readonly log: SourceLogger;
  private nextSlot = 0;

  constructor(options: HttpOptions = {}) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
    this.minRequestIntervalMs = options.minRequestIntervalMs ?? 0;
    this.headers = { 'user-agent': options.userAgent ?? 'Isobar weather map (self-hosted; live model sources)' };
    this.log = options.log ?? SILENT_LOGGER;
  }

  /** A copy with other options (a source's own throttle), sharing nothing but the options given. */
  with(options: HttpOptions): SourceHttp {
    return new SourceHttp({
      fetch: this.fetch, sleep: this.sleep, random: this.random, now: this.now, retry: this.policy,
      idleTimeoutMs: this.idleTimeoutMs, minRequestIntervalMs: this.minRequestIntervalMs, log: this.log, ...options,
    });
  }

  /** The body of a text file, or null when the server says it does not exist (404, 410). */
  async text(url: string, signal?: AbortSignal): Promise<string | null> {
    return this.withRetry(url, signal, async (attemptSignal, touch) => {
      const response = await this.request(url, 'GET', {}, attemptSignal);
      if (response.status === 404 || response.status === 410) {
        await discard(response);
        return null;
      }
      await this.requireOk(response, url);
      const body = await this.readBody(response, touch);
      // With a Content-Encoding, fetch() hands over decoded bytes and Content-Length counts encoded ones.
      const declared = response.headers.get('content-encoding') ? null : response.headers.get('content-length');
      if (declared !== null && Number(declared) !== body.length) {
        throw new TransientError(`Truncated body from ${url}: ${body.length} of ${declared} bytes`);
      }
      return new TextDecoder().decode(body);
    });
  }

  /**
   * The whole body of a file (observation products: a radar frame, a storm track, an alert feed),
   * or null when the server says it does not exist (404, 410). Compressed files stay as stored
   * (`accept-encoding: identity`); a body shorter than its Content-Length is fetched again.
   */
  async bytes(url: string, signal?: AbortSignal): Promise<Uint8Array | null> {
    return this.withRetry(url, signal, async (attemptSignal, touch) => {
      const response = await this.request(url, 'GET', { 'accept-encoding': 'identity' }, attemptSignal);
      if (response.status === 404 || response.status === 410) {
        await discard(response);
        return null;
      }
      await this.requireOk(response, url);
      const body = await this.readBody(response, touch);
      const declared = response.headers.get('content-length');
      if (declared !== null && Number(declared) !== body.length) {
        throw new TransientError(`Truncated body from ${url}: ${body.length} of ${declared} bytes`);
      }
      return body;
    });
  }

  /** Whether a file exists (HEAD): 2xx true, 404 / 410 false, anything else an error. */
  async exists(url: string, signal?: AbortSignal): Promise<boolean> {
    return this.withRetry(url, signal, async (attemptSignal) => {
      const response = await this.request(url, 'HEAD', {}, attemptSignal);
      await discard(response);
      if (response.status === 404 || response.status === 410) return false;
      await this.requireOk(response, url);
      return true;
    });
  }

  /**
   * One byte range of a file. The answer must be 206 for exactly that range and as long as asked;
   * `validate` (e.g. "whole GRIB messages") runs inside the retry, so a corrupt body is fetched again.
   */
  async range(url: string, range: ByteRange, options: { validate?: (bytes: Uint8Array) => void; signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const spec = `bytes=${range.start}-${range.end ?? ''}`;
    return this.withRetry(url, options.signal, async (attemptSignal, touch) => {
      const response = await this.request(url, 'GET', { range: spec, 'accept-encoding': 'identity' }, attemptSignal);
      if (response.status === 200) {
        await discard(response);
        throw new HttpStatusError(url, 200, `the server ignored "Range: ${spec}"`);
      }
      await this.requireOk(response, url);
      const contentRange = parseContentRange(response.headers.get('content-range'));
      if (response.status !== 206 || !contentRange || contentRange.start !== range.start
        || (range.end !== null && contentRange.end !== range.end)) {
        await discard(response);
        throw new HttpStatusError(url, response.status, `asked ${spec}, got Content-Range ${response.headers.get('content-range')}`);
      }
      const expected = (contentRange.end ?? 0) - range.start + 1;
      const body = await this.readBody(response, touch);
      if (body.length !== expected) throw new TransientError(`Truncated range ${spec} of ${url}: ${body.length} of ${expected} bytes`);
      options.validate?.(body);
      return body;
    });
  }

  /**
   * Downloads a whole file to `path`, through `path + '.part'`: a part left by a broken transfer
   * (in this call or an earlier process) is continued with `Range: bytes=N-`; a server that answers
   * 200 instead restarts it. Returns the file's size.
   */
  async downloadFile(url: string, path: string, options: { signal?: AbortSignal; onBytes?: (n: number) => void } = {}): Promise<number> {
    const part = `${path}.part`;
    const size = await this.withRetry(url, options.signal, async (attemptSignal, touch) => {
      const have = await fileSize(part);
      // Byte offsets count stored bytes: ask for them unencoded.
      const headers: Record<string, string> = { 'accept-encoding': 'identity' };
      if (have > 0) headers.range = `bytes=${have}-`;
      const response = await this.request(url, 'GET', headers, attemptSignal);
      if (have > 0 && response.status === 416) {
        await discard(response);
        const total = parseContentRange(response.headers.get('content-range'))?.total;
        if (total === have) return have;
        await (await open(part, 'w')).close();
        throw new TransientError(`Partial ${part} (${have} bytes) does not fit ${url} (${total ?? '?'} bytes); restarting`);
      }
      await this.requireOk(response, url);
      let append = false;
      if (response.status === 206) {
        const contentRange = parseContentRange(response.headers.get('content-range'));
        if (!contentRange || contentRange.start !== have) {
          await discard(response);
          throw new HttpStatusError(url, 206, `asked bytes=${have}-, got Content-Range ${response.headers.get('content-range')}`);
        }
        append = true;
      }
      const declared = response.headers.get('content-length');
      const handle = await open(part, append ? 'a' : 'w');
      let received = 0;
      try {
        await this.readBody(response, touch, async (chunk) => {
          await handle.write(chunk);
          received += chunk.length;
          options.onBytes?.(chunk.length);
        });
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (declared !== null && Number(declared) !== received) {
        throw new TransientError(`Truncated body from ${url}: ${received} of ${declared} bytes (kept for resume)`);
      }
      return (append ? have : 0) + received;
    });
    await rename(part, path);
    return size;
  }

  private async request(url: string, method: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    this.stats.requests++;
    return this.fetch(url, { method, headers: { ...this.headers, ...headers }, signal, redirect: 'follow' });
  }

  private async requireOk(response: Response, url: string): Promise<void> {
    if (response.ok) return;
    await discard(response);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.now());
    throw new HttpStatusError(url, response.status, response.statusText, retryAfter);
  }

  /** Reads a body, resetting the idle timer on every chunk; collects it unless `sink` takes the chunks. */
  private async readBody(response: Response, touch: Touch, sink?: (chunk: Uint8Array) => Promise<void>): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (!response.body) return new Uint8Array(0);
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      touch();
      total += value.length;
      this.stats.bytes += value.length;
      if (sink) await sink(value);
      else chunks.push(value);
    }
    return sink ? new Uint8Array(0) : concat(chunks, total);
  }

  private async throttle(signal?: AbortSignal): Promise<void> {
    if (this.minRequestIntervalMs <= 0) return;
    const now = this.now();
    const wait = this.nextSlot - now;
    this.nextSlot = Math.max(now, this.nextSlot) + this.minRequestIntervalMs;
    if (wait > 0) await this.sleep(wait, signal);
  }

  private async withRetry<T>(url: string, signal: AbortSignal | undefined, run: (signal: AbortSignal, touch: Touch) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      await this.throttle(signal);
      const stall = new AbortController();
      const attemptSignal = signal ? AbortSignal.any([signal, stall.signal]) : stall.signal;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const touch = () => {
        clearTimeout(timer);
        timer = setTimeout(() => stall.abort(new TransientError(`Nothing from ${url} for ${this.idleTimeoutMs} ms`)), this.idleTimeoutMs);
      };
      touch();
      try {
        return await run(attemptSignal, touch);
      } catch (caught) {
        if (signal?.aborted) throw signal.reason ?? caught;
        const error = stall.signal.aborted ? stall.signal.reason : caught;
        if (!isRetryable(error) || attempt >= this.policy.attempts) throw error;
        let delay = backoffDelay(attempt - 1, this.policy, this.random);
        const retryAfter = error instanceof HttpStatusError ? error.retryAfterMs : undefined;
        if (retryAfter !== undefined) {
          if (retryAfter > this.policy.maxRetryAfterMs) throw error;
          delay = Math.max(delay, retryAfter);
        }
        this.stats.retries++;
        this.log.warn({ url, attempt, delayMs: delay, err: String((error as Error)?.message ?? error) }, 'download failed; retrying');
        await this.sleep(delay, signal);
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
