import { useCallback, useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'kioku.theme';

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Light or dark follows `prefers-color-scheme` unless the user chose one in Settings. Either way
 * the result is a `data-theme` attribute of `light` or `dark` on <html>, so the stylesheets hold
 * each palette once (`:root[data-theme='dark']`), not a second time inside a media query; on
 * `system` the attribute follows the system's changes while the app is open.
 */
let stopFollowing: (() => void) | undefined;

export function applyTheme(theme: Theme): void {
  stopFollowing?.();
  stopFollowing = undefined;
  const root = document.documentElement;
  if (theme !== 'system') {
    root.dataset.theme = theme;
    return;
  }
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const follow = () => {
    root.dataset.theme = query.matches ? 'dark' : 'light';
  };
  follow();
  query.addEventListener('change', follow);
  stopFollowing = () => query.removeEventListener('change', follow);
}

/** For Settings; main.tsx applies the stored choice at start, before anything is drawn. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setThemeState] = useState<Theme>(storedTheme);
  useEffect(() => applyTheme(theme), [theme]);
  const setTheme = useCallback((next: Theme) => {
    setThemeState(next);
    try {
      if (next === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* not remembered */
    }
  }, []);
  return [theme, setTheme];
}
