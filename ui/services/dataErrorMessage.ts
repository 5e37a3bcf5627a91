/**
 * The map's data error as a top message (SPEC §8: "Error loading forecast for {{model}}" with
 * Retry), shown through the top-message model like the other messages (state/messages.ts): while the
 * data model is in error and the connection is up. Offline, the error is the connection's doing
 * and the offline message says so; back online, the connection reloads the data, which hides it.
 * Retry reloads the data; a new model's error replaces an older one's.
 */

import { effect, type ReadonlySignal } from '@preact/signals-core';
import type { MessagesModel } from '../state/messages.ts';

/** The top message's name (data-message), for tests and styles. */
export const DATA_ERROR_MESSAGE = 'dataError';

export interface DataErrorMessageDeps {
  messages: MessagesModel;
  /** The data model's status (state/dataModel.ts). */
  status: ReadonlySignal<string>;
  /** The name of the model whose data failed. */
  modelName: ReadonlySignal<string>;
  /** False while the connection is known to be down (state/connectionModel.ts). */
  online: ReadonlySignal<boolean>;
  reload: () => void;
}

/** Shows and hides the data error message as the data and the connection change; returns the stopper. */
export function startDataErrorMessage({ messages, status, modelName, online, reload }: DataErrorMessageDeps): () => void {
  let shown: { id: number; model: string } | null = null;
  const stop = effect(() => {
    const failed = status.value === 'error';
    const model = modelName.value;
    if (failed && online.value) {
      if (shown && shown.model === model && messages.isActive(shown.id)) return;
      const id = messages.show({
        key: 'app.dataError', params: { model }, kind: 'error', name: DATA_ERROR_MESSAGE, action: { key: 'app.retry', run: reload },
      });
      shown = { id, model };
    } else if (shown) {
      messages.hide(shown.id);
      shown = null;
    }
  });
  return () => {
    stop();
    if (shown) messages.hide(shown.id);
  };
}
