/**
 * The client error report (SPEC §7 "POST {error host}/sedlina/errors", §4 "Error reporting
 * phases", §8 "Error reporting"): its fields, the JSON schema the server validates it with, and
 * the secret stripping both sides apply (a URL of the request layer carries the user's token).
 */

/** SPEC §4: the phase of the page when the error happened. */
export const RUNNING_PHASES = ['1_loading', '2_dependenciesResolved', '3_redrawFinished', 'documentIsHidden'] as const;
export type RunningPhase = (typeof RUNNING_PHASES)[number];

/** What raised the report: a browser error event, an unhandled rejection, or the app itself. */
export const ERROR_TYPES = ['error', 'unhandledrejection', 'custom'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ERRORS_PATH = '/sedlina/errors';

export interface ErrorReport {
  /** Stable id of the error (same type, message and place: same id); repeats are counted by it. */
  errorID: string;
  overlay: string;
  runningPhase: RunningPhase;
  /** ms since the epoch. */
  timestamp: number;
  /** Minutes since the page started. */
  runningMinutes: number;
  type: ErrorType;
  msg: string;
  /** How many times it happened before this report (0 for the first). */
  repeated: number;
  url: string;
  ver: string;
  /** SPEC §3 Device "target": the web app. */
  target: string;
  platform: string;
  device: string;
  /** SPEC §9: the last 5 broadcast (usage) events. */
  latestBcast: string[];
  /** The network as the browser sees it (effective type, or 'online' / 'offline'). */
  network: string;
  script: string;
  line: number;
  col: number;
  stack: string;
}

const MAX_TEXT = 2000;
const MAX_STACK = 8000;

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/** JSON schema of the body (Fastify validates with it; unknown fields are dropped). */
export const ERROR_REPORT_SCHEMA = {
  type: 'object',
  required: ['errorID', 'runningPhase', 'timestamp', 'type', 'msg'],
  additionalProperties: false,
  properties: {
    errorID: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    overlay: text(64),
    runningPhase: { type: 'string', enum: [...RUNNING_PHASES] },
    timestamp: { type: 'number', minimum: 0 },
    runningMinutes: { type: 'number', minimum: 0 },
    type: { type: 'string', enum: [...ERROR_TYPES] },
    msg: text(MAX_TEXT),
    repeated: { type: 'integer', minimum: 0 },
    url: text(MAX_TEXT),
    ver: text(64),
    target: text(32),
    platform: text(32),
    device: text(32),
    latestBcast: { type: 'array', maxItems: 5, items: text(200) },
    network: text(32),
    script: text(MAX_TEXT),
    line: { type: 'integer', minimum: 0 },
    col: { type: 'integer', minimum: 0 },
    stack: text(MAX_STACK),
  },
} as const;

/** Cuts a text to the schema's length so that a long message still gets reported. */
export function clip(value: string, maxLength = MAX_TEXT): string {
  return value.length > maxLength ? `${value.slice(0, maxLength - 1)}…` : value;
}
export const clipStack = (value: string) => clip(value, MAX_STACK);

/** Query fields and headers that carry secrets (SPEC §7: the request layer adds token, uid ...). */
const SECRET_NAMES = ['token', 'usertoken', 'authhash', 'authorization', 'access_token', 'refresh_token', 'password', 'apikey', 'api_key', 'uid', 'cookie'];
const SECRET_PAIR = new RegExp(`\\b(${SECRET_NAMES.join('|')})(["']?\\s*[=:]\\s*["']?)((?:Bearer|Basic)\\s+)?[^&\\s"',;}]+`, 'gi');
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/g;

/** Replaces secret values in a text (URLs, messages, stacks) with [redacted]. */
export function redactSecrets(value: string): string {
  return value.replace(SECRET_PAIR, '$1$2$3[redacted]').replace(BEARER, '$1 [redacted]');
}

/** A short stable id (FNV-1a, 32 bit, base 36) of a text. */
export function errorIdOf(...parts: readonly (string | number)[]): string {
  let hash = 0x811c9dc5;
  const input = parts.join('|');
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}
