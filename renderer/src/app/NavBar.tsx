import { Icon, type IconName } from '../components/icons.js';
import { useI18n } from '../i18n/i18n.js';
import { VIEWS, VIEW_LABELS, hrefFor, type Route, type ViewId } from './routes.js';

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

export function NavBar({ route }: { route: Route }) {
  const { t } = useI18n();
  return (
    <nav className="sidebar" aria-label={t('nav.label')}>
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
        <ul className="nav-list">
          {VIEWS.map((view) => {
            const current = route.view === view;
            return (
              <li key={view} className={view === 'status' ? 'nav-item nav-item-split' : 'nav-item'}>
                <a
                  className={current ? 'nav-link nav-link-current' : 'nav-link'}
                  href={hrefFor(view === 'roles' ? { view, page: { kind: 'list' } } : { view })}
                  aria-current={current ? 'page' : undefined}
                >
                  <Icon name={VIEW_ICONS[view]} />
                  <span>{t(VIEW_LABELS[view])}</span>
                </a>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
