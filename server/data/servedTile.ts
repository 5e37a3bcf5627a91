/**
 * A data tile in the forms the tile route sends (server/routes/tiles.ts): the gzip bytes, sent as
 * they are to every client that accepts gzip, and the inflated (identity) bytes for the clients
 * that do not, made once on the first such request and kept beside them, so that no request
 * inflates a tile again while it is cached. Strong validators, one per representation (RFC 9110
 * §8.8.3).
 */

import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);

export class ServedTile {
  private identityJob: Promise<Buffer> | null = null;
  private identityBytes = 0;
  /** Told the size of the identity bytes once they are kept (the cache that holds the tile counts them). */
  onIdentity: ((bytes: number) => void) | null = null;

  constructor(readonly gzip: Buffer, readonly etagGzip: string, readonly etagIdentity: string) {}

  /** A tile read as gzip bytes, its validators from their hash. */
  static fromGzip(gzip: Buffer): ServedTile {
    const hash = createHash('sha1').update(gzip).digest('base64url').slice(0, 22);
    return new ServedTile(gzip, `"${hash}-gz"`, `"${hash}"`);
  }

  /** Bytes held: the gzip bytes, and the identity bytes once made. */
  get bytes(): number {
    return this.gzip.byteLength + this.identityBytes;
  }

  /** The inflated bytes: the same Buffer for every caller, inflated once (off the event loop). */
  identity(): Promise<Buffer> {
    this.identityJob ??= gunzipAsync(this.gzip).then((bytes) => {
      this.identityBytes = bytes.byteLength;
      this.onIdentity?.(bytes.byteLength);
      return bytes;
    }, (error: unknown) => {
      this.identityJob = null;
      throw error;
    });
    return this.identityJob;
  }
}
