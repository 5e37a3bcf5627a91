/** The frame of a panel window: a title bar with a close button, and the panel's body. */
import './panelFrame.css';

import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';

export function PanelFrame({ title, close, children, className, frameRef }: {
  title: string; close(): void; children: ReactNode; className?: string;
  /** The frame's element (a point window measures where it stands: ui/panels/usePointMark.ts). */
  frameRef?: Ref<HTMLDivElement>;
}) {
  const { t } = useTranslation();
  return (
    <div ref={frameRef} className={className ? `panel-frame ${className}` : 'panel-frame'}>
      <header className="panel-head">
        <h2>{title}</h2>
        <button type="button" className="panel-close" onClick={close} aria-label={t('picker.close')} data-testid="panel-close">×</button>
      </header>
      <div className="panel-body">{children}</div>
    </div>
  );
}
