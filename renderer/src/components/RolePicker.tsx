import { useEffect, useState } from 'react';
import type { RoleListItem } from '../../../common/ui-contract.js';
import { useI18n } from '../i18n/i18n.js';
import './role-picker.css';

/** The role the memory views (timeline, sleep history, bonds) look at; '' = every role. */
const STORAGE_KEY = 'kioku.viewRole';

function stored(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * One choice shared by the memory views while the window is open, so moving from a role's
 * timeline to its sleep history keeps the role. `allowAll` views start with every role;
 * the others with the active role (or the first one).
 */
export function useChosenRole(roles: RoleListItem[], activeRole: string | null, allowAll: boolean): [string, (role: string) => void] {
  const fallback = allowAll ? '' : (activeRole ?? roles[0]?.id ?? '');
  const [role, setRole] = useState(() => stored() ?? fallback);
  const known = role === '' ? allowAll : roles.some((r) => r.id === role);
  const chosen = known ? role : fallback;
  useEffect(() => {
    if (!known && role !== fallback) setRole(fallback);
  }, [known, role, fallback]);
  const choose = (next: string) => {
    setRole(next);
    try {
      sessionStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* kept for this view only */
    }
  };
  return [chosen, choose];
}

export function RolePicker({
  roles,
  value,
  onChange,
  allowAll,
  id,
}: {
  roles: RoleListItem[];
  value: string;
  onChange(role: string): void;
  allowAll?: boolean;
  id: string;
}) {
  const { t } = useI18n();
  return (
    <label className="role-picker" htmlFor={id}>
      <span className="role-picker-label">{t('memoryViews.role')}</span>
      <select id={id} className="input role-picker-select" value={value} onChange={(event) => onChange(event.target.value)}>
        {allowAll ? <option value="">{t('memoryViews.allRoles')}</option> : null}
        {roles.map((role) => (
          <option key={role.id} value={role.id}>
            {`${role.emoji ? `${role.emoji} ` : ''}${role.name || role.id}`}
          </option>
        ))}
      </select>
    </label>
  );
}
