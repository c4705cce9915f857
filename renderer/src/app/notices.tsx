import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { Icon } from '../components/icons.js';

export interface Notice {
  id: number;
  kind: 'success' | 'info' | 'warning';
  text: string;
}

interface Notices {
  notify(kind: Notice['kind'], text: string): void;
}

const NoticeContext = createContext<Notices | undefined>(undefined);

/** Short confirmations after an action ("已建立 …"), announced to screen readers too. */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setNotices((all) => all.filter((notice) => notice.id !== id)), []);
  const notify = useCallback(
    (kind: Notice['kind'], text: string) => {
      const id = Date.now() + Math.random();
      setNotices((all) => [...all.slice(-2), { id, kind, text }]);
      window.setTimeout(() => dismiss(id), 8000);
    },
    [dismiss],
  );
  const value = useMemo(() => ({ notify }), [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((notice) => (
          <div key={notice.id} className={`notice notice-${notice.kind}`}>
            <Icon name={notice.kind === 'success' ? 'check' : 'info'} />
            <span className="notice-text">{notice.text}</span>
            <button type="button" className="icon-button" aria-label={t('common.dismiss')} onClick={() => dismiss(notice.id)}>
              <Icon name="close" />
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotices(): Notices {
  const value = useContext(NoticeContext);
  if (!value) throw new Error('useNotices outside NoticeProvider');
  return value;
}
