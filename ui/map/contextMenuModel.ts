/**
 * The map's context menu (SPEC §2 window "contextmenu", desktop, right-click on the map): where it
 * is open (screen position and the map's point there), or closed. MapView opens it; the menu
 * (ui/components/ContextMenu.tsx) draws it and closes it.
 */

import { signal, type ReadonlySignal } from '@preact/signals-core';

export interface ContextMenuAt {
  /** CSS px from the map's top-left. */
  x: number;
  y: number;
  lat: number;
  lon: number;
}

export interface ContextMenuModel {
  readonly at: ReadonlySignal<ContextMenuAt | null>;
  open(at: ContextMenuAt): void;
  close(): void;
}

export function createContextMenuModel(): ContextMenuModel {
  const at = signal<ContextMenuAt | null>(null);
  return {
    at,
    open(next) {
      at.value = next;
    },
    close() {
      at.value = null;
    },
  };
}
