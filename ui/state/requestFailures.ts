/**
 * Failed requests, reported by whoever fetches (the data model, the error reporter ...) to the
 * connection model (connectionModel.ts), which probes the site on network failures (SPEC §4
 * "Connection": "On an offline event or failed request, probe the site icon"). It lives apart
 * from the connection model so that the data layer in the start-up bundle can report without
 * importing the model, which loads lazily; failures before it loads are counted and replayed.
 */

export type RequestFailureListener = (error: unknown, url?: string) => void;

const listeners = new Set<RequestFailureListener>();
const early: [unknown, string | undefined][] = [];
const EARLY_MAX = 20;

/** SPEC §8: network failures (status 0, no HTTP answer) and non-HTTP errors; an aborted request is neither. */
export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  if (error instanceof TypeError) return true;
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 0;
}

/** A request failed: listeners decide what it means (the connection model probes on network failures). */
export function reportRequestFailure(error: unknown, url?: string): void {
  if (listeners.size === 0) {
    if (early.length < EARLY_MAX) early.push([error, url]);
    return;
  }
  listeners.forEach((listener) => listener(error, url));
}

/** Subscribes; failures reported before the first listener are replayed to it. */
export function onRequestFailure(listener: RequestFailureListener): () => void {
  listeners.add(listener);
  for (const [error, url] of early.splice(0)) listener(error, url);
  return () => listeners.delete(listener);
}
