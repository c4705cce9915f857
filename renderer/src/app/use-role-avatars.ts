import { useEffect, useState } from 'react';
import type { RoleListItem } from '../../../common/ui-contract.js';
import { useBridge } from './bridge-context.js';

/**
 * Each role's emoji-sheet picture by role ID (emoji.avatars). Asked again whenever the role list
 * changes: a confirmed sheet save pushes a new state, so the picture follows without a reload.
 */
export function useRoleAvatars(roles: readonly RoleListItem[] | undefined): ReadonlyMap<string, string> {
  const bridge = useBridge();
  const [avatars, setAvatars] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    if (!roles) return;
    let live = true;
    void bridge.invoke('emoji.avatars', {}).then((answer) => {
      // Without an answer the Unicode emoji stays: the picture is a nicety, not a fault to report.
      if (live && answer.ok) setAvatars(new Map(answer.value.avatars.map((avatar) => [avatar.id, avatar.dataUrl])));
    });
    return () => {
      live = false;
    };
  }, [bridge, roles]);
  return avatars;
}
