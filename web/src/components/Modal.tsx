import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A dialog over the page: closes on the × button, Escape or a tap on the backdrop; with
 * `closesByAccident={false}` (a dialog showing something it cannot show again) only on its
 * own buttons and the ×.
 */
export function Modal({
  title,
  onClose,
  children,
  size = 'md',
  testId,
  closesByAccident = true,
  className,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
  closesByAccident?: boolean;
  /** More classes on the dialog (a dialog that fills a phone's screen: `ladder-modal`). */
  className?: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  useEffect(() => {
    if (!closesByAccident) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose, closesByAccident]);

  return (
    <div className="modal-backdrop" onMouseDown={(e) => closesByAccident && e.target === e.currentTarget && onClose()}>
      <div className={`modal modal-${size}${className ? ` ${className}` : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
        <div className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="modal-close" aria-label={t('modal.close')} onClick={onClose} data-testid="modal-close">
            ×
          </button>
        </div>
        <div className="modal-body">{children}</div>
      </div>
    </div>
  );
}
