import type { DiagnoseView } from '../../../../common/ui-contract.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { AREA_LABELS, CHECK_TEXT, checkParams } from './diagnose-text.js';

/**
 * `kioku diagnose` as a checklist (OPS-1, the "when the role does not load" checklist): ✓ / ✗ / – per row, and
 * under every ✗ what to do about it.
 */
export function DiagnoseList({ diagnose }: { diagnose: DiagnoseView }) {
  const { t, formatDate, formatNumber } = useI18n();
  return (
    <section className="card diagnose-card" aria-labelledby="status-check-title">
      <div className="diagnose-head">
        <h2 id="status-check-title" className="card-title">
          {t('status.check.title')}
        </h2>
        <span className={diagnose.failed === 0 ? 'badge badge-ok' : 'badge badge-fail'} data-testid="diagnose-summary">
          {diagnose.failed === 0 ? t('status.check.allOk') : t('status.check.failed', { count: formatNumber(diagnose.failed) })}
        </span>
      </div>
      <ul className="diagnose-list">
        {diagnose.checks.map((check, index) => {
          const words = CHECK_TEXT[check.code];
          const params = checkParams(check, t, formatDate);
          return (
            <li key={`${check.code}-${index}`} className={`diagnose-row diagnose-${check.mark}`} data-code={check.code}>
              <span className="diagnose-mark" role="img" aria-label={t(`status.mark.${check.mark}`)}>
                {check.mark === 'ok' ? '✓' : check.mark === 'fail' ? '✗' : '–'}
              </span>
              <span className="diagnose-area">{t(AREA_LABELS[check.area], params)}</span>
              <div className="diagnose-body">
                <p className="diagnose-text">{t(words.text, params)}</p>
                {check.mark === 'fail' && words.fix ? (
                  <p className="diagnose-fix">
                    <Icon name="info" size={15} />
                    <span>{t(words.fix, params)}</span>
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
