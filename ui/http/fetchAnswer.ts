/**
 * GET requests of the map's data and forecast paths (SPEC §7 "The request layer"): an Accept header,
 * the bearer token only where a caller passes one (a subscriber's forecast), and the answer checked
 * against its contract's schema (common/api/), so a caller gets the typed answer or an error that
 * says what was wrong — never JSON it has to check by hand.
 */

import { checkAnswer, type Infer, type JsonSchema } from '../../common/api/schema.ts';
import { reportRequestFailure } from '../state/requestFailures.ts';
import { HttpError, jsonMessage } from './httpError.ts';

export interface AnswerOptions {
  signal?: AbortSignal;
  /** A subscriber's bearer token: the server serves Premium data from it (SPEC §6, server/auth/tier.ts). */
  token?: string | null;
  cache?: RequestCache;
}

export async function fetchAnswer<const S extends JsonSchema>(schema: S, path: string, options: AnswerOptions = {}): Promise<Infer<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(path, { signal: options.signal, headers, ...(options.cache ? { cache: options.cache } : {}) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    const failure = new HttpError(0, `Request failed for URL ${path}: ${(error as Error).message}`, String(error));
    // SPEC §4: a failed request makes the connection model probe the site.
    reportRequestFailure(failure, path);
    throw failure;
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const said = jsonMessage(text);
    throw new HttpError(response.status, `Request failed for URL ${path}: HTTP ${response.status}${said ? `: ${said}` : ''}`, text);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new HttpError(response.status, `Request failed for URL ${path}: the answer is not JSON`, '');
  }
  return checkAnswer(schema, body, path);
}
