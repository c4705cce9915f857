import { useCallback, useEffect, useState } from 'react';
import type { AppState, BondView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useOnMemoriesChanged } from '../../app/use-memories-changed.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RolePicker, useChosenRole } from '../../components/RolePicker.js';
import { useI18n } from '../../i18n/i18n.js';
import { BondDirectionIcon } from './BondDirectionIcon.js';
import './bonds.css';

const STEP = 100;
/** BONDS.md keeps the newest 500 (MEM-7). */
const MOST = 500;

/**
 * Bonds (MEM-7): the words that passed between the user and the role, as they
 * were written, newest first — who said it to whom, and when. Deliberately no totals, no counts
 * per direction, no streaks: "bonds are never used to demand attention or count affection".
 */
export function BondsView({ state }: { state: AppState }) {
  const { t, language } = useI18n();
  const bridge = useBridge();
  const [role, setRole] = useChosenRole(state.roles, state.activeRole, false);
  const [count, setCount] = useState(STEP);
  const [bonds, setBonds] = useState<BondView[]>();
  const [error, setError] = useState<UiError>();
  const roleItem = state.roles.find((r) => r.id === role);
  const name = roleItem ? roleItem.name || roleItem.id : role;

  const load = useCallback(async () => {
    if (!role) return;
    const answer = await bridge.invoke('bonds.list', { role, count });
    if (answer.ok) {
      if (answer.value.role !== role) return;
      setBonds(answer.value.bonds);
      setError(undefined);
    } else setError(answer.error);
  }, [bridge, role, count]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    setBonds(undefined);
    setCount(STEP);
  }, [role]);
  useOnMemoriesChanged(role, load);

  const when = new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  const whenDay = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' });
  const timeText = (bond: BondView) => {
    if (!bond.at) return bond.time;
    const date = new Date(bond.at);
    return /\d{1,2}:\d{2}/.test(bond.time) ? when.format(date) : whenDay.format(date);
  };

  if (state.roles.length === 0) {
    return (
      <div className="page">
        <PageHeader title={t('bondsView.title')} subtitle={t('bondsView.subtitle')} />
        <EmptyState icon="roles" title={t('memoryViews.noRoles.title')} body={t('memoryViews.noRoles.body')} />
      </div>
    );
  }

  return (
    <div className="page bonds-page">
      <PageHeader
        title={t('bondsView.title')}
        subtitle={t('bondsView.subtitle')}
        actions={<RolePicker id="bonds-role" roles={state.roles} value={role} onChange={setRole} />}
      />
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      {bonds === undefined && !error ? <p className="loading">{t('common.loading')}</p> : null}
      {bonds && bonds.length === 0 ? (
        <EmptyState icon="bonds" title={t('bondsView.empty.title', { name })} body={t('bondsView.empty.body')} />
      ) : null}
      {bonds && bonds.length > 0 ? (
        <>
          <ol className="bond-list" aria-label={t('bondsView.listLabel', { name })}>
            {bonds.map((bond, index) => (
              <li
                key={`${bond.time}-${index}-${bond.text.slice(0, 16)}`}
                className={`bond bond-${bond.direction ?? 'none'}`}
                data-testid="bond"
              >
                <div className="bond-meta">
                  <span className="bond-direction">
                    <BondDirectionIcon direction={bond.direction} />
                    {bond.direction ? t(`bondsView.direction.${bond.direction}`) : t('bondsView.direction.none')}
                  </span>
                  {bond.time ? <time dateTime={bond.at ?? undefined}>{timeText(bond)}</time> : null}
                </div>
                <p className="bond-text">{bond.text}</p>
              </li>
            ))}
          </ol>
          {bonds.length >= count && count < MOST ? (
            <button type="button" className="button button-secondary bonds-more" onClick={() => setCount((c) => Math.min(MOST, c + STEP))}>
              {t('bondsView.more')}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
