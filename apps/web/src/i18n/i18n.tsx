import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { PRODUCT_NAME } from '../config';
import { zoneLabel } from '../lib/zone-label';
import { en, type MessageKey, type Messages } from './en';
import { fr } from './fr';

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export type Params = Record<string, string | number>;

const CATALOGS: Record<Locale, Messages> = { en, fr };
const LOCALE_STORAGE_KEY = 'qless.lang';
/** BCP 47 tags for Intl: Cameroon's English and French. */
const INTL_LOCALE: Record<Locale, string> = { en: 'en-CM', fr: 'fr-CM' };
/**
 * The fee's currency as each language writes it: the spec's "2 XAF" in English, "2 FCFA"
 * (with a no-break space, as French typography wants) in French.
 */
const MONEY: Record<Locale, (amount: number) => string> = {
  en: (amount) => `${amount} XAF`,
  fr: (amount) => `${amount}\u00a0FCFA`,
};

function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'fr';
}

/** Stored choice first, then the browser's preferred languages, then English. */
export function detectLocale(stored: string | null, languages: readonly string[]): Locale {
  if (isLocale(stored)) return stored;
  for (const lang of languages) {
    const base = lang.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}

export function interpolate(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

function translate(locale: Locale, key: MessageKey, params?: Params): string {
  return interpolate(CATALOGS[locale][key], { product: PRODUCT_NAME, ...params });
}

type Translate = (key: MessageKey, params?: Params) => string;

interface I18nValue {
  locale: Locale;
  intlLocale: string;
  setLocale: (locale: Locale) => void;
  t: Translate;
  /** An amount of CFA francs as this language writes it. */
  money: (amount: number) => string;
  /** A time zone as people read it, e.g. "heure de Douala (UTC+1)". */
  zone: (timeZone: string, at?: Date) => string;
}

const I18nContext = createContext<I18nValue | null>(null);

function readStored(): string | null {
  try {
    return localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(() =>
    detectLocale(readStored(), navigator.languages ?? [navigator.language]),
  );

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, next);
    } catch {
      // Private mode: the choice lasts for this visit only.
    }
  }, []);

  const value = useMemo<I18nValue>(
    () => ({
      locale,
      intlLocale: INTL_LOCALE[locale],
      setLocale,
      t: (key, params) => translate(locale, key, params),
      money: MONEY[locale],
      zone: (timeZone, at = new Date()) => zoneLabel(locale, timeZone, at),
    }),
    [locale, setLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
