/**
 * Your own GRIB2 file on the map (issue 3 item 6): pick it from the top bar or drop it anywhere on
 * the page. The file is read here and handed to the render worker, which decodes it, shows it with
 * colours and particles, and never uploads it anywhere.
 */

import { useEffect, useRef, useState } from 'react';
import { transfer } from 'comlink';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { renderClient } from '../map/renderClient.ts';
import type { AppState } from '../state/appState.ts';
import { OverlayIcon } from './icons.tsx';

/** The worker refuses bigger files (workers/local/localGrib.ts): say so before reading them. */
const MAX_BYTES = 512 * 1024 * 1024;

type Status = { kind: 'idle' } | { kind: 'reading'; name: string } | { kind: 'error'; message: string } | { kind: 'shown'; name: string; fields: number; skipped: string[] };

export function GribOpener({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);

  const open = async (file: File) => {
    if (file.size > MAX_BYTES) {
      setStatus({ kind: 'error', message: t('grib.tooBig', { name: file.name, mb: Math.round(MAX_BYTES / 1048576) }) });
      return;
    }
    setStatus({ kind: 'reading', name: file.name });
    try {
      const bytes = await file.arrayBuffer();
      const summary = await renderClient.api().openGrib(transfer({ name: file.name, bytes }, [bytes]));
      const previous = app.data.local.peek();
      app.data.showLocal(summary);
      if (previous) void renderClient.api().closeGrib({ product: previous.ident });
      setStatus({ kind: 'shown', name: file.name, fields: summary.fields - summary.skipped.length, skipped: summary.skipped });
    } catch (error) {
      setStatus({ kind: 'error', message: t('grib.failed', { name: file.name, message: (error as Error).message }) });
    }
  };

  const close = () => {
    const ident = app.data.closeLocal();
    if (ident) void renderClient.api().closeGrib({ product: ident });
    setStatus({ kind: 'idle' });
  };

  useEffect(() => {
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) void open(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  });

  const local = app.data.local.value;
  return (
    <>
      <button type="button" className="grib-open" onClick={() => input.current?.click()} data-testid="grib-open" title={t('grib.open')}>
        <OverlayIcon ident="file" size={16} />
        <span className="grib-open-label">{t('grib.open')}</span>
      </button>
      <input ref={input} type="file" hidden accept=".grib2,.grb2,.grib,.grb,.bin,application/octet-stream" data-testid="grib-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void open(file);
        }} />
      {local && (
        <span className="local-badge" title={t('grib.private')} data-testid="local-badge">
          <span>{t('grib.yourFile', { name: local.modelName })}</span>
          <button type="button" onClick={close} aria-label={t('grib.close')}><OverlayIcon ident="close" size={12} /></button>
        </span>
      )}
      {status.kind === 'reading' && <div className="banner" role="status">{t('grib.reading', { name: status.name })}</div>}
      {status.kind === 'error' && (
        <div className="banner error" role="alert" data-testid="grib-error">
          {status.message}
          <button type="button" onClick={() => setStatus({ kind: 'idle' })}>{t('grib.dismiss')}</button>
        </div>
      )}
      {status.kind === 'shown' && local && status.skipped.length > 0 && (
        <div className="banner" role="status" title={status.skipped.join('\n')} data-testid="grib-skipped">
          {t('grib.skipped', { shown: status.fields, count: status.skipped.length })}
          <button type="button" onClick={() => setStatus({ kind: 'idle' })}>{t('grib.dismiss')}</button>
        </div>
      )}
      {dragging && <div className="drop-zone" aria-hidden="true">{t('grib.drop')}</div>}
    </>
  );
}
