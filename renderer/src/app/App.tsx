import { useEffect, useRef } from 'react';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { useI18n } from '../i18n/i18n.js';
import { BondsView } from '../views/bonds/BondsView.js';
import { FactsView } from '../views/facts/FactsView.js';
import { JournalView } from '../views/journal/JournalView.js';
import { MindmapView } from '../views/mindmap/MindmapView.js';
import { PreviewView } from '../views/preview/PreviewView.js';
import { RolesView } from '../views/roles/RolesView.js';
import { SettingsView } from '../views/settings/SettingsView.js';
import { SleepView } from '../views/sleep/SleepView.js';
import { StatusView } from '../views/status/StatusView.js';
import { TimelineView } from '../views/timeline/TimelineView.js';
import { LeaveGuardDialog } from './LeaveGuardDialog.js';
import { NavBar } from './NavBar.js';
import { NoticeProvider } from './notices.js';
import { useRoute, type Route } from './routes.js';
import { StatusStrip } from './StatusStrip.js';
import { useAppState, type AppStateHandle } from './use-app-state.js';

function CurrentView({ route, app }: { route: Route; app: AppStateHandle }) {
  const { t } = useI18n();
  if (route.view === 'settings') return <SettingsView />;
  if (route.view === 'journal') return <JournalView />;
  if (route.view === 'facts') return <FactsView />;
  if (!app.state) {
    return app.error ? (
      <ErrorNotice error={app.error} onRetry={() => void app.refresh()} />
    ) : (
      <p className="loading" aria-busy="true">
        {t('app.loading')}
      </p>
    );
  }
  if (route.view === 'roles') return <RolesView page={route.page} app={app} state={app.state} />;
  if (route.view === 'timeline') return <TimelineView state={app.state} />;
  if (route.view === 'sleep') return <SleepView state={app.state} />;
  if (route.view === 'bonds') return <BondsView state={app.state} />;
  if (route.view === 'mindmap') return <MindmapView state={app.state} />;
  if (route.view === 'preview') return <PreviewView state={app.state} />;
  return <StatusView state={app.state} />;
}

export function App() {
  const { t } = useI18n();
  const route = useRoute();
  const app = useAppState();
  const main = useRef<HTMLElement>(null);
  const routeKey = JSON.stringify(route);

  // After navigating, move focus to the new view so keyboard and screen-reader users land on it.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [routeKey]);

  return (
    <NoticeProvider>
      {/* The first thing Tab reaches: past the navigation, straight to the view (WCAG 2.4.1). */}
      <a
        className="skip-link"
        href="#main-content"
        onClick={(event) => {
          // The hash is the route: following the href would open the roles page instead.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <div className="layout">
        <NavBar route={route} />
        <div className="main-column">
          <StatusStrip state={app.state} connected={app.connected} />
          <main id="main-content" className="content" ref={main} tabIndex={-1}>
            <CurrentView route={route} app={app} />
          </main>
        </div>
      </div>
      <LeaveGuardDialog />
    </NoticeProvider>
  );
}
