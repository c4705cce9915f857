import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { fill } from './fill.js';
import { en } from './messages-en.js';
import { zhTW, type MessageKey } from './messages-zh-TW.js';

export type Language = 'zh-TW' | 'en';
export const LANGUAGES: { id: Language; label: string }[] = [
  // Each language is named in itself, so a user who cannot read the current one finds theirs.
  { id: 'zh-TW', label: '繁體中文（台灣）' },
  { id: 'en', label: 'English' },
];

const CATALOGUES: Record<Language, Record<MessageKey, string>> = { 'zh-TW': zhTW, en };
const STORAGE_KEY = 'kioku.language';

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

interface I18n {
  language: Language;
  setLanguage(language: Language): void;
  t: Translate;
  formatDate(value: string | undefined): string;
  formatNumber(value: number): string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'en' || value === 'zh-TW' ? value : 'zh-TW';
  } catch {
    return 'zh-TW';
  }
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(storedLanguage);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = CATALOGUES[language]['app.name'];
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* not remembered; still switched */
    }
  }, []);

  const value = useMemo<I18n>(() => {
    const catalogue = CATALOGUES[language];
    const dateFormat = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const numberFormat = new Intl.NumberFormat(language);
    return {
      language,
      setLanguage,
      t: (key, values) => fill(catalogue[key] ?? key, values),
      formatDate: (text) => {
        if (!text) return '';
        const date = new Date(text);
        return Number.isNaN(date.getTime()) ? text : dateFormat.format(date);
      },
      formatNumber: (n) => numberFormat.format(n),
    };
  }, [language, setLanguage]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
