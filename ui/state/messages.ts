/**
 * The top message banner (SPEC §2 "A top message banner (replaced when a new one comes)"; §9 top
 * message replacement 200 ms). One message at a time; a new one replaces the shown one: the old
 * one leaves (phase 'leaving') for 200 ms, then the new one enters. A message holds a translation
 * key and its parameters, so it follows a language change while shown.
 *
 *   show(m)   -> shown now (nothing shown) or after the 200 ms of the leaving one
 *   hide(id)  -> leaves, removed after 200 ms; hiding a message that is not shown does nothing
 *   durationMs: hides itself after that long (from when it is shown)
 */

import { signal, type ReadonlySignal } from '@preact/signals-core';
import { TOP_MESSAGE_REPLACE_MS } from '../../common/limits.ts';

export type MessageKind = 'info' | 'success' | 'error';

export interface MessageInput {
  /** Translation key (core bundle unless namespaced). */
  key: string;
  params?: Record<string, unknown>;
  kind?: MessageKind;
  /** Hides itself this long after it shows; none: until hidden. */
  durationMs?: number;
  /** The banner is clickable (a button) and runs this. */
  onClick?: () => void;
  /** A button inside the banner (Retry): its label's translation key and what it runs. */
  action?: { key: string; run: () => void };
  /** A stable name for tests and styles (offline, online, browserSupport ...). */
  name?: string;
}

export interface TopMessage extends MessageInput {
  id: number;
  kind: MessageKind;
  phase: 'shown' | 'leaving';
}

export interface MessagesModel {
  readonly top: ReadonlySignal<TopMessage | null>;
  /** Shows a message (replacing the shown one); returns its id for hide(). */
  show(message: MessageInput): number;
  hide(id: number): void;
  /** Whether this message is shown or waits to be. */
  isActive(id: number): boolean;
  dispose(): void;
}

export function createMessagesModel(): MessagesModel {
  const top = signal<TopMessage | null>(null);
  let next: TopMessage | null = null;
  let nextId = 1;
  let swapTimer: ReturnType<typeof setTimeout> | null = null;
  let lifeTimer: ReturnType<typeof setTimeout> | null = null;

  const clearLife = () => {
    if (lifeTimer) clearTimeout(lifeTimer);
    lifeTimer = null;
  };

  const enter = (message: TopMessage | null) => {
    clearLife();
    top.value = message;
    if (message?.durationMs) {
      const { id } = message;
      lifeTimer = setTimeout(() => hide(id), message.durationMs);
    }
  };

  /** The shown message leaves; after 200 ms the waiting one (if any) enters. */
  const leave = () => {
    const shown = top.peek();
    clearLife();
    if (!shown) {
      enter(next);
      next = null;
      return;
    }
    if (shown.phase !== 'leaving') top.value = { ...shown, phase: 'leaving' };
    if (swapTimer) return;
    swapTimer = setTimeout(() => {
      swapTimer = null;
      const waiting = next;
      next = null;
      enter(waiting);
    }, TOP_MESSAGE_REPLACE_MS);
  };

  const hide = (id: number) => {
    if (next?.id === id) {
      next = null;
      return;
    }
    if (top.peek()?.id === id && top.peek()?.phase === 'shown') leave();
  };

  return {
    top,
    show(input) {
      const message: TopMessage = { ...input, kind: input.kind ?? 'info', id: nextId++, phase: 'shown' };
      if (!top.peek()) {
        enter(message);
      } else {
        next = message;
        leave();
      }
      return message.id;
    },
    hide,
    isActive: (id) => next?.id === id || (top.peek()?.id === id && top.peek()?.phase === 'shown'),
    dispose() {
      clearLife();
      if (swapTimer) clearTimeout(swapTimer);
    },
  };
}
