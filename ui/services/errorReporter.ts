/**
 * Client error reports (SPEC §7 "POST {error host}/sedlina/errors", §8 "Error reporting", §9 max
 * 1000 per session). Browser errors (window `error`), unhandled rejections whose reason is a
 * ReferenceError, and the app's own custom errors are posted, except:
 *
 *   inside a frame           never (the page is someone else's)
 *   after 1000 reports       never again this page view
 *   status 0                 a request that got no HTTP answer says nothing about the code
 *   offline                  it could not arrive
 *   repeats                  the first goes out; of its repeats only every 10th up to the 50th,
 *                            marked "(repeated)" with the repeat count
 *
 * Each report carries the fields of SPEC §7, the running phase of SPEC §4 included, with secrets
 * (tokens in URLs, bearer headers) redacted before they leave the page.
 */

import {
  clip, clipStack, errorIdOf, ERRORS_PATH, redactSecrets, type ErrorReport, type ErrorType, type RunningPhase,
} from '../../common/errorReport.ts';
import { ERROR_REPEAT_EVERY, ERROR_REPEAT_MAX, ERROR_REPORTS_MAX, LATEST_BROADCASTS } from '../../common/limits.ts';

export interface ErrorInput {
  type?: ErrorType;
  msg: string;
  script?: string;
  line?: number;
  col?: number;
  stack?: string;
  /** HTTP status of a failed request; 0 (no answer) is never reported. */
  status?: number;
}

export type ReportOutcome = 'sent' | 'inFrame' | 'capReached' | 'status0' | 'offline' | 'repeatSkipped';

/** What the page tells about itself at the moment of a report. */
export interface ReportContext {
  overlay: string;
  url: string;
  platform: string;
  device: string;
  latestBcast: string[];
  network: string;
  hidden: boolean;
}

export interface ErrorReporterDeps {
  /** Posts one report (default: fetch POST JSON, keepalive). */
  send?: (report: ErrorReport) => Promise<unknown>;
  context: () => ReportContext;
  offline: () => boolean;
  /** True when the page runs inside a frame. */
  inFrame: boolean;
  version: string;
  now?: () => number;
  /** When the page started, ms since the epoch. */
  startedAt?: number;
  endpoint?: string;
}

export interface ErrorReporter {
  report(input: ErrorInput): ReportOutcome;
  setPhase(phase: Exclude<RunningPhase, 'documentIsHidden'>): void;
  readonly phase: RunningPhase;
  /** Reports sent this page view. */
  readonly sent: number;
  /** Listens to window errors and unhandled rejections; returns the remover. */
  attach(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void;
}

/** SPEC §8: only unhandled rejections of reference errors are posted. */
export function isReportedRejection(reason: unknown): boolean {
  return reason instanceof ReferenceError || (typeof reason === 'object' && reason !== null && (reason as Error).name === 'ReferenceError');
}

/** Turns a window error event into a report input. */
export function fromErrorEvent(event: Pick<ErrorEvent, 'message' | 'filename' | 'lineno' | 'colno' | 'error'>): ErrorInput {
  const error = event.error as Error | undefined;
  return {
    type: 'error',
    msg: event.message || error?.message || 'Unknown error',
    script: event.filename ?? '',
    line: event.lineno ?? 0,
    col: event.colno ?? 0,
    stack: error?.stack ?? '',
  };
}

export function fromRejection(reason: unknown): ErrorInput {
  const error = reason as Error;
  return { type: 'unhandledrejection', msg: `${error?.name ?? 'Error'}: ${error?.message ?? String(reason)}`, stack: error?.stack ?? '' };
}

const defaultSend = (endpoint: string) => (report: ErrorReport) => fetch(endpoint, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(report),
  keepalive: true,
});

export function createErrorReporter(deps: ErrorReporterDeps): ErrorReporter {
  const now = deps.now ?? Date.now;
  const startedAt = deps.startedAt ?? now();
  const send = deps.send ?? defaultSend(deps.endpoint ?? ERRORS_PATH);
  const occurrences = new Map<string, number>();
  let phase: Exclude<RunningPhase, 'documentIsHidden'> = '1_loading';
  let sent = 0;

  const report = (input: ErrorInput): ReportOutcome => {
    if (deps.inFrame) return 'inFrame';
    if (sent >= ERROR_REPORTS_MAX) return 'capReached';
    if (input.status === 0) return 'status0';
    if (deps.offline()) return 'offline';
    const type = input.type ?? 'custom';
    const script = input.script ?? '';
    const errorID = errorIdOf(type, input.msg, script, input.line ?? 0, input.col ?? 0);
    const repeated = occurrences.get(errorID) ?? 0;
    occurrences.set(errorID, repeated + 1);
    if (repeated > 0 && (repeated % ERROR_REPEAT_EVERY !== 0 || repeated > ERROR_REPEAT_MAX)) return 'repeatSkipped';
    const context = deps.context();
    const time = now();
    const body: ErrorReport = {
      errorID,
      overlay: clip(context.overlay, 64),
      runningPhase: context.hidden ? 'documentIsHidden' : phase,
      timestamp: time,
      runningMinutes: Math.max(0, Math.round((time - startedAt) / 6000) / 10),
      type,
      msg: clip(redactSecrets(repeated > 0 ? `${input.msg} (repeated)` : input.msg)),
      repeated,
      url: clip(redactSecrets(context.url)),
      ver: deps.version,
      target: 'index',
      platform: context.platform,
      device: context.device,
      latestBcast: context.latestBcast.slice(-LATEST_BROADCASTS).map((e) => clip(redactSecrets(e), 200)),
      network: clip(context.network, 32),
      script: clip(redactSecrets(script)),
      line: Math.max(0, Math.trunc(input.line ?? 0)),
      col: Math.max(0, Math.trunc(input.col ?? 0)),
      stack: clipStack(redactSecrets(input.stack ?? '')),
    };
    sent++;
    // A report that cannot be posted is dropped: reporting that would loop.
    send(body).catch(() => {});
    return 'sent';
  };

  return {
    report,
    setPhase(next) {
      phase = next;
    },
    get phase() {
      return deps.context().hidden ? 'documentIsHidden' : phase;
    },
    get sent() {
      return sent;
    },
    attach(target) {
      const onError = (event: Event) => {
        // Resource load errors (an <img> that failed) reach window listeners only in capture; not ours.
        if (!('message' in event)) return;
        report(fromErrorEvent(event as ErrorEvent));
      };
      const onRejection = (event: Event) => {
        const { reason } = event as PromiseRejectionEvent;
        if (isReportedRejection(reason)) report(fromRejection(reason));
      };
      target.addEventListener('error', onError);
      target.addEventListener('unhandledrejection', onRejection);
      return () => {
        target.removeEventListener('error', onError);
        target.removeEventListener('unhandledrejection', onRejection);
      };
    },
  };
}
