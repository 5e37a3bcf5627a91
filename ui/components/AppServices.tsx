/**
 * What the services around the map (services/appServices.ts) show: the top message banner
 * (SPEC §2: replaced when a new one comes; the offline and online messages of SPEC §8, the data
 * error with its Retry button) and the
 * bottom message area with the model provider. Loaded lazily right after the first render; once
 * loaded it works offline (its texts are core strings).
 */

import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../state/appState.ts';
import { useAppServices } from '../services/ServicesContext.tsx';
import type { MessagesModel } from '../state/messages.ts';
import './appServices.css';

export function TopMessage({ messages }: { messages: MessagesModel }) {
  useSignals();
  const { t } = useTranslation();
  const message = messages.top.value;
  if (!message) return null;
  const text = t(message.key, message.params);
  const className = `top-message top-message-${message.kind} ${message.phase === 'leaving' ? 'leaving' : 'shown'}`;
  const common = {
    className,
    'data-testid': 'top-message',
    'data-message': message.name ?? message.key,
    role: message.kind === 'error' ? 'alert' : 'status',
  } as const;
  if (message.onClick) {
    const { onClick } = message;
    return <button type="button" {...common} onClick={onClick}>{text}</button>;
  }
  const { action } = message;
  return (
    <div {...common}>
      {text}
      {action && <button type="button" className="top-message-action" data-testid="top-message-action" onClick={action.run}>{t(action.key)}</button>}
    </div>
  );
}

/** SPEC §2: "a bottom message area showing a model provider logo" (the provider's name as a wordmark). */
export function BottomMessage({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const product = app.layer.productDef.value;
  return (
    <div className="bottom-message" data-testid="bottom-message" title={t('messages.providerHint', { model: product.modelName, provider: product.provider })}>
      <span className="bottom-message-label">{t('messages.forecastBy')}</span>
      <span className="provider-logo">{product.provider}</span>
    </div>
  );
}

/**
 * Publishes the height of the bottom controls as --bottom-controls-height on <html>, so windows
 * that float above them (the consent window) never cover them, whatever they hold on this screen.
 */
function useBottomControlsHeight() {
  useEffect(() => {
    const bottom = document.querySelector<HTMLElement>('.app > .bottom');
    if (!bottom) return undefined;
    const publish = () => document.documentElement.style.setProperty('--bottom-controls-height', `${Math.round(bottom.getBoundingClientRect().height)}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(bottom);
    return () => observer.disconnect();
  }, []);
}

/**
 * Publishes where the top bar ends as --topbar-bottom on <html>: the top message shows under it,
 * also where the bar wraps onto a second row (a tablet in portrait).
 */
function useTopbarBottom() {
  useEffect(() => {
    const topbar = document.querySelector<HTMLElement>('.app > .topbar');
    if (!topbar) return undefined;
    const publish = () => document.documentElement.style.setProperty('--topbar-bottom', `${Math.round(topbar.getBoundingClientRect().bottom)}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(topbar);
    return () => observer.disconnect();
  }, []);
}

export default function AppServices() {
  // The services live as long as the page (services/compose.ts), whatever React mounts and unmounts.
  const services = useAppServices();
  useBottomControlsHeight();
  useTopbarBottom();
  return services && <TopMessage messages={services.messages} />;
}
