/**
 * Listing an S3 bucket (NOAA's open buckets of GOES lightning and imagery) by ListObjectsV2, page
 * by page: the keys under a prefix.
 */

import { ObsDataError, type ObsContext } from './source.ts';

/** Keys of an S3 ListObjectsV2 answer, and its continuation token when truncated. */
export function parseS3Listing(xml: string): { keys: string[]; next: string | null } {
  if (!/<ListBucketResult[\s>]/.test(xml)) throw new Error(`not an S3 bucket listing: ${JSON.stringify(xml.slice(0, 80))}`);
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  const keys = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => unescape(m[1]));
  const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
  const token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  return { keys, next: truncated && token ? unescape(token) : null };
}

/** Every key under `prefix` in the bucket at `bucket` (base URL); a missing bucket or a page that is not a listing is an ObsDataError of `sourceId`. */
export async function listBucket(ctx: ObsContext, sourceId: string, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | null = null;
  do {
    const url = `${bucket}/?list-type=2&prefix=${encodeURIComponent(prefix)}${token === null ? '' : `&continuation-token=${encodeURIComponent(token)}`}`;
    const xml = await ctx.http.text(url, ctx.signal);
    if (xml === null) throw new ObsDataError(sourceId, bucket, 'bucket not found (404)');
    let page: { keys: string[]; next: string | null };
    try {
      page = parseS3Listing(xml);
    } catch (error) {
      throw new ObsDataError(sourceId, url, (error as Error).message);
    }
    keys.push(...page.keys);
    token = page.next;
  } while (token !== null);
  return keys;
}
