import { useState, type KeyboardEvent } from 'react';
import { PageHeader } from '../../components/PageHeader.js';
import { useI18n } from '../../i18n/i18n.js';
import { FactsPanel } from './FactsPanel.js';
import { ProjectPanel } from './ProjectPanel.js';
import './facts.css';

type Tab = 'global' | 'project';
const TABS: Tab[] = ['global', 'project'];
const TAB_KEY = 'kioku.factsTab';

function storedTab(): Tab {
  try {
    return sessionStorage.getItem(TAB_KEY) === 'project' ? 'project' : 'global';
  } catch {
    return 'global';
  }
}

/**
 * Facts and project memory (APP-2 "facts/project memory editors (DSH-1/2 limits shown)"): the
 * global FACT.md every role shares, and a project's MEMORY.md. Two tabs, arrow keys between them.
 */
export function FactsView() {
  const { t } = useI18n();
  const [tab, setTab] = useState<Tab>(storedTab);
  const choose = (next: Tab) => {
    setTab(next);
    try {
      sessionStorage.setItem(TAB_KEY, next);
    } catch {
      /* this window only */
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    choose(next);
    document.getElementById(`facts-tab-${next}`)?.focus();
  };
  return (
    <div className="page facts-page">
      <PageHeader title={t('nav.facts')} subtitle={t('facts.subtitle')} />
      <div className="tabs" role="tablist" aria-label={t('facts.tabs')} onKeyDown={onKeyDown}>
        {TABS.map((id) => (
          <button
            key={id}
            id={`facts-tab-${id}`}
            type="button"
            role="tab"
            className={tab === id ? 'tab tab-on' : 'tab'}
            aria-selected={tab === id}
            aria-controls={`facts-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => choose(id)}
          >
            <span>{t(id === 'global' ? 'facts.tab.global' : 'facts.tab.project')}</span>
            <span className="tab-file mono">{id === 'global' ? 'FACT.md' : 'MEMORY.md'}</span>
          </button>
        ))}
      </div>
      <div id={`facts-panel-${tab}`} role="tabpanel" aria-labelledby={`facts-tab-${tab}`}>
        {tab === 'global' ? <FactsPanel /> : <ProjectPanel />}
      </div>
    </div>
  );
}
