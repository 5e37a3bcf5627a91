/**
 * Requests of the account and its cloud data (SPEC §7 "The request layer", §8 "HTTP failure"):
 *
 *   - an Accept header; a JSON body for POST, PUT and PATCH;
 *   - on user and account paths only (/users/..., /api/..., /notif/...) the bearer header with the
 *     session token, and credentials; never on other paths, so the token cannot leak to a data or
 *     tile host;
 *   - 304 counts as success (no body); 204 too;
 *   - any other non-OK answer throws an HttpError with the status, "Request failed for URL ..."
 *     and the body text; a network failure throws one with status 0 (and is reported, so the
 *     connection model probes the site).
 */

import { checkAnswer, type Infer, type JsonSchema } from '../../common/api/schema.ts';
import { HttpError, jsonMessage } from '../http/httpError.ts';
import { reportRequestFailure } from '../state/requestFailures.ts';


export interface AccountResponse<T> {
  status: number;
  /** The parsed JSON body; null for 204, 304 and empty bodies. */
  data: T | null;
  /** A header of the answer, or null. */
  header(name: string): string | null;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AccountRequest {
  <T>(method: Method, path: string, body?: unknown): Promise<AccountResponse<T>>;
}

export interface AccountRequestDeps {
  /** The session token, or null when logged out. */
  token: () => string | null;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Where network failures go (the connection model, SPEC §4 "Connection"). */
  onNetworkFailure?: (error: unknown, url: string) => void;
}

/** SPEC §6, §7: the paths that carry the bearer token (user and account paths). */
export function isAccountPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  return /^\/(users|api|notif)\//.test(path);
}

export function createAccountRequest(deps: AccountRequestDeps): AccountRequest {
  const doFetch = deps.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const onNetworkFailure = deps.onNetworkFailure ?? reportRequestFailure;
  return async <T>(method: Method, path: string, body?: unknown): Promise<AccountResponse<T>> => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const init: RequestInit = { method, headers, cache: 'no-store' };
    if (body !== undefined && (method === 'POST' || method === 'PUT' || method === 'PATCH')) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const token = deps.token();
    if (isAccountPath(path)) {
      init.credentials = 'include';
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    let response: Response;
    try {
      response = await doFetch(path, init);
    } catch (error) {
      onNetworkFailure(error, path);
      throw new HttpError(0, `Request failed for URL ${path}`, String(error));
    }
    const header = (name: string) => response.headers.get(name);
    if (response.status === 304 || response.status === 204) return { status: response.status, data: null, header };
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new HttpError(response.status, `Request failed for URL ${path}`, text);
    if (text === '') return { status: response.status, data: null, header };
    try {
      return { status: response.status, data: JSON.parse(text) as T, header };
    } catch {
      throw new HttpError(response.status, `Request failed for URL ${path}: the answer is not JSON`, text.slice(0, 200));
    }
  };
}

/** The server's error text of a failed request, when it sent one as { message }. */
export function serverMessage(error: unknown): string | null {
  return error instanceof HttpError ? jsonMessage(error.responseText) : null;
}

/**
 * A request's answer checked against its contract (common/api/): the typed body, or a ContractError
 * that says what is wrong; an answer without a body (204, 304) is one too.
 */
export function answerOf<const S extends JsonSchema>(schema: S, response: AccountResponse<unknown>, path: string): Infer<S> {
  return checkAnswer(schema, response.data, path);
}
