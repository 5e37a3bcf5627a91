/**
 * Test helper: a local HTTP server standing in for the model publishers (NOMADS / AWS, ECMWF, DWD).
 * It serves files put into it at the paths of the upstream layout, directory listings for paths
 * ending in `/` (like DWD's nginx autoindex), and the `.idx` / `.index` files generated from the
 * GRIB2 bytes (gribIndex.ts). Loopback only; no file system.
 *
 * Ranges: one range per request (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answered 206 with
 * Content-Range; an unsatisfiable one 416; a multi-range request gets the whole file with 200,
 * as S3 does. Every request is logged (method, path, Range, status, body bytes, whether the body
 * was sent whole), and faults can be injected per path: a status (5xx, 429 with Retry-After, 404),
 * a connection reset before answering, a body cut after N bytes, a slow answer, an answer held
 * until a promise settles, or a hook that runs as a request arrives (to abort a client
 * mid-download). `bytesPerSecond` throttles every body to a link of that speed, shared by all
 * answers at once (a home connection).
 *
 * S3's ListObjectsV2 (`GET /?list-type=2&prefix=...`, as NOAA's open buckets answer it) lists the
 * files whose path without its leading `/` starts with the prefix, `max-keys` (default 1000) a page
 * with a continuation token.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ecmwfIndexText, noaaIndexText } from './fixtureIndex.ts';

export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'reset' }
  | { kind: 'truncate'; afterBytes: number }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'hold'; until: Promise<unknown> };

export interface FaultRule {
  /** Exact path, or a pattern tested against the path. */
  path: string | RegExp;
  fault: Fault;
  /** How many matching requests get the fault (default 1); Infinity for all. */
  times?: number;
  /** Only requests with (true) or without (false) a Range header. */
  ranged?: boolean;
  /** Matching requests let through before the fault applies (default 0). */
  after?: number;
}

export interface RequestRecord {
  method: string;
  path: string;
  range: string | null;
  status: number;
  /** Body bytes written. */
  bytes: number;
  /** The response ended normally (not reset, not cut, not aborted by the client). */
  completed: boolean;
}

function parseRange(header: string, size: number): { start: number; end: number } | 'multi' | 'invalid' {
  const spec = /^bytes=(.+)$/.exec(header.trim());
  if (!spec) return 'invalid';
  if (spec[1].includes(',')) return 'multi';
  const match = /^(\d*)-(\d*)$/.exec(spec[1].trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'invalid' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start > end || start >= size ? 'invalid' : { start, end };
}

export class FixtureServer {
  readonly files = new Map<string, Uint8Array>();
  /** Answers of services that take their arguments in the query, by path (putQuery). */
  private readonly queried = new Map<string, { query: Record<string, string>; bytes: Uint8Array }[]>();
  readonly log: RequestRecord[] = [];
  /** Runs as each request arrives, before any fault or answer. */
  onRequest: ((req: IncomingMessage) => void) | null = null;
  /** Listings name subfolders too ("name/", as ECCC's dd.weather.gc.ca autoindex does), not only files. */
  listFolders = false;
  /** Bandwidth of the link all bodies share, bytes a second; null: as fast as loopback goes. */
  bytesPerSecond: number | null = null;
  /** When the shared link is free again (ms, performance.now()). */
  private linkFreeAt = 0;
  private readonly faults: FaultRule[] = [];
  /** Requests still being answered (a slow answer waits out its delay even when its client has gone). */
  private readonly answering = new Set<Promise<void>>();
  private server: Server | null = null;
  private baseUrl = '';

  static async start(): Promise<FixtureServer> {
    const fixture = new FixtureServer();
    const server = createServer((req, res) => {
      const answer = fixture.handle(req, res).finally(() => fixture.answering.delete(answer));
      fixture.answering.add(answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fixture.server = server;
    fixture.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fixture;
  }

  get url(): string {
    return this.baseUrl;
  }

  put(path: string, bytes: Uint8Array | string): void {
    this.files.set(path, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
  }

  remove(path: string): void {
    this.files.delete(path);
    this.queried.delete(path);
  }

  /**
   * An answer to the requests of `path` whose query has each parameter of `query` (services that
   * take their arguments in the query, as UWyo's /wsgi/sounding); the latest put wins. Requests that
   * match none get the file put at the path, else 404.
   */
  putQuery(path: string, query: Record<string, string>, bytes: Uint8Array | string): void {
    const answer = { query, bytes: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes };
    this.queried.set(path, [answer, ...(this.queried.get(path) ?? [])]);
  }

  private answerFor(path: string, query: URLSearchParams): Uint8Array | undefined {
    const match = this.queried.get(path)?.find((a) => Object.entries(a.query).every(([k, v]) => query.get(k) === v));
    return match?.bytes ?? this.files.get(path);
  }

  /** A NOAA file and its wgrib2-style `.idx` (`{path}.idx`). */
  putNoaa(path: string, grib: Uint8Array): void {
    this.put(path, grib);
    this.put(`${path}.idx`, noaaIndexText(grib));
  }

  /** An ECMWF file and its `.index` (`.grib2` replaced by `.index`). */
  putEcmwf(path: string, grib: Uint8Array): void {
    this.put(path, grib);
    this.put(path.replace(/\.grib2$/, '.index'), ecmwfIndexText(grib));
  }

  fault(rule: FaultRule): void {
    this.faults.push({ times: 1, ...rule });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  clearLog(): void {
    this.log.length = 0;
  }

  /** Resolves once every request that has arrived is answered, or given up on a client that left. */
  async settled(): Promise<void> {
    await Promise.all([...this.answering]);
  }

  /** Requests for one path (or all), optionally only those with a Range header. */
  requests(path?: string | RegExp, ranged?: boolean): RequestRecord[] {
    return this.log.filter((r) => (path === undefined || (typeof path === 'string' ? r.path === path : path.test(r.path)))
      && (ranged === undefined || (r.range !== null) === ranged));
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private takeFault(path: string, ranged: boolean): Fault | null {
    for (const rule of this.faults) {
      const matches = typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
      if (!matches || (rule.times ?? 1) <= 0 || (rule.ranged !== undefined && rule.ranged !== ranged)) continue;
      if ((rule.after ?? 0) > 0) {
        rule.after = (rule.after ?? 0) - 1;
        continue;
      }
      rule.times = (rule.times ?? 1) - 1;
      return rule.fault;
    }
    return null;
  }

  private listing(dir: string): string | null {
    const below = [...this.files.keys()].filter((p) => p.startsWith(dir) && p.length > dir.length).map((p) => p.slice(dir.length));
    const names = [...new Set(this.listFolders
      ? below.map((rest) => (rest.includes('/') ? `${rest.slice(0, rest.indexOf('/'))}/` : rest))
      : below.filter((rest) => !rest.includes('/')))];
    if (names.length === 0) return null;
    const rows = names.sort().map((name) => `<a href="${encodeURI(name)}">${name}</a>   01-Jan-2024 00:00   ${this.files.get(dir + name)?.length ?? '-'}`);
    return `<html><head><title>Index of ${dir}</title></head><body><h1>Index of ${dir}</h1><hr><pre><a href="../">../</a>\n${rows.join('\n')}\n</pre><hr></body></html>\n`;
  }

  /** S3 ListObjectsV2 XML (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html). */
  private s3Listing(query: URLSearchParams): string {
    const prefix = query.get('prefix') ?? '';
    const maxKeys = Number(query.get('max-keys') ?? 1000);
    const after = query.get('continuation-token') ?? query.get('start-after') ?? '';
    const keys = [...this.files.keys()].map((p) => p.slice(1)).filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const contents = page.map((key) => `<Contents><Key>${escape(key)}</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified><Size>${this.files.get(`/${key}`)?.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>fixture</Name><Prefix>${escape(prefix)}</Prefix>`
      + `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>`
      + (truncated ? `<NextContinuationToken>${escape(page[page.length - 1])}</NextContinuationToken>` : '')
      + `${contents.join('')}</ListBucketResult>`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://fixture').pathname);
    const range = req.headers.range ?? null;
    const record: RequestRecord = { method: req.method ?? 'GET', path, range, status: 0, bytes: 0, completed: false };
    this.log.push(record);
    this.onRequest?.(req);

    const fault = this.takeFault(path, range !== null);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.kind === 'hold') await fault.until.catch(() => undefined);
    if (res.destroyed) return;
    if (fault?.kind === 'status') {
      record.status = fault.status;
      res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers });
      res.end(`injected ${fault.status}`, () => {
        record.completed = true;
      });
      return;
    }

    const query = new URL(req.url ?? '/', 'http://fixture').searchParams;
    let body = path === '/' && query.get('list-type') === '2' ? new TextEncoder().encode(this.s3Listing(query)) : path.endsWith('/') ? (() => {
      const html = this.listing(path);
      return html === null ? undefined : new TextEncoder().encode(html);
    })() : this.answerFor(path, query);
    if (body === undefined) {
      record.status = 404;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found', () => {
        record.completed = true;
      });
      return;
    }
    const headers: Record<string, string | number> = { 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
    let status = 200;
    if (range !== null) {
      const parsed = parseRange(range, body.length);
      if (parsed === 'invalid') {
        record.status = 416;
        res.writeHead(416, { 'content-range': `bytes */${body.length}` });
        res.end(() => {
          record.completed = true;
        });
        return;
      }
      if (parsed !== 'multi') {
        status = 206;
        headers['content-range'] = `bytes ${parsed.start}-${parsed.end}/${body.length}`;
        body = body.subarray(parsed.start, parsed.end + 1);
      }
    }
    headers['content-length'] = body.length;
    record.status = status;
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      res.end(() => {
        record.completed = true;
      });
      return;
    }
    if (fault?.kind === 'truncate') {
      const cut = body.subarray(0, Math.min(fault.afterBytes, body.length));
      record.bytes = cut.length;
      // Let the bytes reach the client before the connection drops, as a broken transfer does.
      res.write(cut, () => setTimeout(() => res.destroy(), 20));
      return;
    }
    if (this.bytesPerSecond !== null) {
      await this.throttled(res, body, record);
      return;
    }
    record.bytes = body.length;
    res.end(body, () => {
      record.completed = true;
    });
  }

  /** Sends a body in chunks paced to the shared link's speed: each chunk waits for the link to be free. */
  private async throttled(res: ServerResponse, body: Uint8Array, record: RequestRecord): Promise<void> {
    const chunk = 16 * 1024;
    for (let at = 0; at < body.length; at += chunk) {
      const part = body.subarray(at, Math.min(body.length, at + chunk));
      const start = Math.max(performance.now(), this.linkFreeAt);
      this.linkFreeAt = start + (1000 * part.length) / this.bytesPerSecond!;
      const wait = this.linkFreeAt - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (res.destroyed) return;
      res.write(part);
      record.bytes += part.length;
    }
    res.end(() => {
      record.completed = true;
    });
  }
}
