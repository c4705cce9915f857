import type { AppState } from '../../../../common/ui-contract.js';
import type { Route } from '../../app/routes.js';
import type { AppStateHandle } from '../../app/use-app-state.js';
import { EmojiSheetEditor } from './emoji/EmojiSheetEditor.js';
import { RoleCreate } from './RoleCreate.js';
import { RoleEdit } from './RoleEdit.js';
import { RoleList } from './RoleList.js';
import './roles.css';

type RolesPage = Extract<Route, { view: 'roles' }>['page'];

/** The Roles view (APP-2, ROLE-5/7/8): the list, the create form, and the editor. */
export function RolesView({ page, app, state }: { page: RolesPage; app: AppStateHandle; state: AppState }) {
  const refresh = () => void app.refresh();
  if (page.kind === 'new') return <RoleCreate onDone={refresh} />;
  if (page.kind === 'edit') return <RoleEdit key={page.id} id={page.id} onDone={refresh} />;
  if (page.kind === 'emoji') return <EmojiSheetEditor key={page.id} id={page.id} onDone={refresh} />;
  return <RoleList state={state} onChanged={refresh} />;
}
