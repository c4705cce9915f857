import { ALL_CATEGORIES, MEMORY_TYPES } from '../../../../common/memory.js';
import { MEMORY_CLARITIES, type RoleStatusView } from '../../../../common/ui-contract.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { categoryLabel, typeLabel } from '../timeline/memory-labels.js';
import { isEmotionalZeroWarning } from './diagnose-text.js';

/**
 * One role of the status report (OPS-1: memory counts by category, last
 * interaction, last sleep and forget, and PM-2's clarity): counts by category and by memory type — a 0 under 情緒 is marked
 * when the role has enough memories for it to mean something — and the three last times.
 */
export function RoleStatusCard({ role }: { role: RoleStatusView }) {
  const { t, language, formatDate, formatNumber } = useI18n();
  const emotionalZero = role.warnings.some(isEmotionalZeroWarning);
  const otherWarnings = role.warnings.filter((w) => !isEmotionalZeroWarning(w));
  const when = (value: string | null) => (value ? formatDate(value) : t('status.never'));
  const biggest = Math.max(1, ...ALL_CATEGORIES.map((c) => role.memory.categories[c]));
  return (
    <article className="card role-status" aria-labelledby={`role-status-${role.id}`} data-role-id={role.id}>
      <header className="role-status-head">
        <span className="avatar" aria-hidden="true">
          {role.emoji || '？'}
        </span>
        <div className="role-status-name">
          <h3 id={`role-status-${role.id}`}>{role.name || role.id}</h3>
          <p className="mono muted">{role.id}</p>
        </div>
        <div className="role-status-badges">
          {role.active ? <span className="badge badge-accent">{t('status.role.active')}</span> : null}
          {!role.covered ? <span className="badge badge-warn">{t('status.role.uncovered')}</span> : null}
          <span className="role-status-total">{t('status.role.total', { count: formatNumber(role.memory.total) })}</span>
        </div>
      </header>
      <div className="role-status-grid">
        <div>
          <h4 className="role-status-label">{t('status.role.categories')}</h4>
          <ul className="category-bars">
            {ALL_CATEGORIES.map((category) => (
              <li key={category} className={`category-bar category-bar-${category}`}>
                <span className="category-bar-name">{categoryLabel(category, language)}</span>
                <span className="category-bar-track" aria-hidden="true">
                  <span className="category-bar-fill" style={{ width: `${(role.memory.categories[category] / biggest) * 100}%` }} />
                </span>
                <span className="category-bar-count">{formatNumber(role.memory.categories[category])}</span>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h4 className="role-status-label">{t('status.role.types')}</h4>
          <ul className="type-counts">
            {MEMORY_TYPES.map((type) => (
              <li key={type} className={`type-count type-${type}${type === 'emotional' && emotionalZero ? ' type-count-warn' : ''}`}>
                <span className="type-dot" aria-hidden="true" />
                <span>{typeLabel(type, language)}</span>
                <strong>{formatNumber(role.memory.types[type])}</strong>
              </li>
            ))}
          </ul>
          <h4 className="role-status-label">{t('status.role.clarity')}</h4>
          <ul className="clarity-counts">
            {MEMORY_CLARITIES.map((clarity) => (
              <li key={clarity}>
                <span>{t(`status.clarity.${clarity}`)}</span>
                <strong>{formatNumber(role.clarity[clarity])}</strong>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <dl className="role-status-times">
        <div>
          <dt>{t('status.role.lastInteraction')}</dt>
          <dd>{when(role.lastInteraction)}</dd>
        </div>
        <div>
          <dt>{t('status.role.lastSleep')}</dt>
          <dd>{when(role.lastSleep)}</dd>
        </div>
        <div>
          <dt>{t('status.role.lastForget')}</dt>
          <dd>{when(role.lastForget)}</dd>
        </div>
      </dl>
      {emotionalZero ? (
        <p className="status-warning" data-testid="emotional-zero">
          <Icon name="warning" size={16} />
          <span>{t('status.role.emotionalZero')}</span>
        </p>
      ) : null}
      {otherWarnings.map((warning) => (
        <p key={warning} className="status-warning">
          <Icon name="warning" size={16} />
          <span>{warning}</span>
        </p>
      ))}
    </article>
  );
}
