import { useI18n } from '../i18n/i18n.js';

/** A role's face: its emoji-sheet picture when it has a saved one, else its Unicode emoji. */
export function RoleAvatar({
  emoji,
  picture,
  name,
  className = 'avatar',
}: {
  emoji: string;
  picture: string | undefined;
  name: string;
  className?: string;
}) {
  const { t } = useI18n();
  if (picture) {
    return (
      <span className={`${className} avatar-picture`} data-testid="role-avatar-picture">
        <img src={picture} alt={t('avatar.sheetAlt', { name })} />
      </span>
    );
  }
  return (
    <span className={className} aria-hidden="true">
      {emoji || '？'}
    </span>
  );
}
