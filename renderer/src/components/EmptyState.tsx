import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons.js';

export function EmptyState({
  icon,
  title,
  body,
  badge,
  children,
}: {
  icon: IconName;
  title: string;
  body: string;
  badge?: string;
  children?: ReactNode;
}) {
  return (
    <section className="empty-state" aria-label={title}>
      <div className="empty-state-icon">
        <Icon name={icon} size={28} />
      </div>
      {badge ? <span className="badge badge-muted">{badge}</span> : null}
      <h2 className="empty-state-title">{title}</h2>
      <p className="empty-state-body">{body}</p>
      {children}
    </section>
  );
}
