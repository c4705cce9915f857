import type { AppState } from '../../../common/ui-contract.js';
import { Icon } from '../components/icons.js';
import { RoleAvatar } from '../components/RoleAvatar.js';
import { useRoleAvatars } from './use-role-avatars.js';
import { useI18n } from '../i18n/i18n.js';

/** Always visible: the sleep state (SLEEP-7's five states) and the active role. */
export function StatusStrip({ state, connected }: { state: AppState | undefined; connected: boolean }) {
  const { t } = useI18n();
  const active = state?.roles.find((role) => role.id === state.activeRole);
  const avatars = useRoleAvatars(state?.roles);
  return (
    <div className="status-strip" role="region" aria-label={t('strip.label')}>
      {state ? (
        <>
          <span className={`sleep-chip sleep-${state.state}`} data-testid="sleep-state" data-state={state.state}>
            <span className="sleep-dot" aria-hidden="true" />
            <span className="visually-hidden">{t('strip.sleep')}: </span>
            {t(`sleep.${state.state}`)}
          </span>
          <span className="strip-active" data-testid="active-role">
            <span className="strip-label">{t('strip.activeRole')}</span>
            {active ? (
              <span className="strip-role">
                <RoleAvatar
                  emoji={active.emoji}
                  picture={avatars.get(active.id)}
                  name={active.name || active.id}
                  className="strip-avatar"
                />{' '}
                {active.name || active.id}
                <span className="mono strip-role-id">{active.id}</span>
              </span>
            ) : (
              <span className="strip-role strip-role-none">{state.activeRole ?? t('strip.noActiveRole')}</span>
            )}
          </span>
        </>
      ) : (
        <span className="strip-label">{t('common.loading')}</span>
      )}
      {!connected ? (
        <span className="strip-offline" role="alert">
          <Icon name="warning" size={16} />
          {t('strip.disconnected')}
        </span>
      ) : null}
    </div>
  );
}
