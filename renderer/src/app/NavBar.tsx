import { useEffect, useRef, useState } from 'react';
import { Icon, type IconName } from '../components/icons.js';
import { useI18n } from '../i18n/i18n.js';
import { VIEWS, VIEW_LABELS, hrefFor, type Route, type ViewId } from './routes.js';
import { useNarrowWindow } from './use-narrow-window.js';

const VIEW_ICONS: Record<ViewId, IconName> = {
  roles: 'roles',
  timeline: 'timeline',
  sleep: 'sleep',
  bonds: 'bonds',
  mindmap: 'mindmap',
  journal: 'journal',
  facts: 'facts',
  preview: 'memory',
  status: 'status',
  settings: 'settings',
};

/**
 * The left navigation. In a narrow window (< 900 px) it folds into a rail of icons, so the view
 * keeps the width; the toggle opens the full column over the content, and a link, Escape or a
 * click beside it closes it again. The labels stay in the links for screen readers either way.
 */
export function NavBar({ route }: { route: Route }) {
  const { t } = useI18n();
  const narrow = useNarrowWindow();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const routeKey = JSON.stringify(route);
  useEffect(() => setOpen(false), [routeKey, narrow]);

  const collapsed = narrow && !open;
  const className = ['sidebar', narrow ? 'sidebar-narrow' : '', collapsed ? 'sidebar-collapsed' : '', narrow && open ? 'sidebar-open' : '']
    .filter(Boolean)
    .join(' ');
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <nav
      className={className}
      aria-label={t('nav.label')}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && narrow && open) close();
      }}
    >
      {narrow && open ? <div className="sidebar-backdrop" aria-hidden="true" onClick={close} /> : null}
      <div className="sidebar-inner">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            記
          </span>
          <span className="brand-text">
            <span className="brand-name">{t('app.name')}</span>
            <span className="brand-tagline">{t('app.tagline')}</span>
          </span>
        </div>
        {narrow ? (
          <button
            ref={toggle}
            type="button"
            className="sidebar-toggle"
            aria-expanded={open}
            aria-controls="nav-list"
            aria-label={t('nav.toggle')}
            onClick={() => setOpen(!open)}
          >
            <Icon name="menu" size={20} />
          </button>
        ) : null}
        <ul id="nav-list" className="nav-list">
          {VIEWS.map((view) => {
            const current = route.view === view;
            return (
              <li key={view} className={view === 'status' ? 'nav-item nav-item-split' : 'nav-item'}>
                <a
                  className={current ? 'nav-link nav-link-current' : 'nav-link'}
                  href={hrefFor(view === 'roles' ? { view, page: { kind: 'list' } } : { view })}
                  aria-current={current ? 'page' : undefined}
                  title={collapsed ? t(VIEW_LABELS[view]) : undefined}
                  onClick={() => setOpen(false)}
                >
                  <Icon name={VIEW_ICONS[view]} />
                  <span className="nav-label">{t(VIEW_LABELS[view])}</span>
                </a>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
