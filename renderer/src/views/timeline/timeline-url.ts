import { ALL_CATEGORIES, MEMORY_TYPES, type MemoryCategory, type MemoryType } from '../../../../common/memory.js';
import { ROLE_ID_PATTERN } from '../../../../common/role-id.js';
import { MEMORY_CLARITIES, type MemoryClarityName } from '../../../../common/ui-contract.js';

/**
 * Issue 16: the timeline's filters and open memory live in the hash's query
 * (`#/timeline?role=ENGINEER01&type=procedural&q=部署&open=ENGINEER01:m-deploy`), so a reload or a
 * shared link shows the same view. Unknown values are dropped, never trusted.
 */
export interface TimelineUrlState {
  role?: string;
  categories: MemoryCategory[];
  types: MemoryType[];
  clarity: MemoryClarityName[];
  query: string;
  forgotten: boolean;
  open?: { role: string; id: string };
}

const ROLE = ROLE_ID_PATTERN;

function listOf<T extends string>(params: URLSearchParams, key: string, allowed: readonly T[]): T[] {
  const values = (params.get(key) ?? '').split(',').filter((value): value is T => (allowed as readonly string[]).includes(value));
  return [...new Set(values)];
}

export function parseTimelineUrl(hash: string): TimelineUrlState {
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  const role = params.get('role') ?? '';
  const open = /^([^:]+):(.+)$/u.exec(params.get('open') ?? '');
  return {
    ...(ROLE.test(role) ? { role } : {}),
    categories: listOf(params, 'cat', ALL_CATEGORIES),
    types: listOf(params, 'type', MEMORY_TYPES),
    clarity: listOf(params, 'clarity', MEMORY_CLARITIES),
    query: (params.get('q') ?? '').slice(0, 500),
    forgotten: params.get('forgotten') === '1',
    ...(open && ROLE.test(open[1]!) && !/[/\\\r\n]/u.test(open[2]!) ? { open: { role: open[1]!, id: open[2]! } } : {}),
  };
}

export function timelineHash(state: TimelineUrlState): string {
  const params = new URLSearchParams();
  if (state.role) params.set('role', state.role);
  if (state.categories.length) params.set('cat', state.categories.join(','));
  if (state.types.length) params.set('type', state.types.join(','));
  if (state.clarity.length) params.set('clarity', state.clarity.join(','));
  if (state.query) params.set('q', state.query);
  if (state.forgotten) params.set('forgotten', '1');
  if (state.open) params.set('open', `${state.open.role}:${state.open.id}`);
  const query = params.toString();
  return query ? `#/timeline?${query}` : '#/timeline';
}
