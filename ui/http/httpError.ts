/** SPEC §3 "HttpError: status, message, responseText": a failed request; status 0 for a network failure. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(readonly status: number, message: string, readonly responseText: string) {
    super(message);
  }
}

/** The `message` of a JSON error body (the server's `{statusCode, error, message}`), else null. */
export function jsonMessage(responseText: string): string | null {
  try {
    const parsed = JSON.parse(responseText) as { message?: unknown } | null;
    return typeof parsed?.message === 'string' ? parsed.message : null;
  } catch {
    return null;
  }
}
