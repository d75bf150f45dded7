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

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export type Params = Record<string, string | number>;

/**
 * English is in the first download; French is its own chunk, fetched only when French is
 * chosen or detected (decision 108: the first page's JavaScript).
 */
const CATALOGS: Partial<Record<Locale, Messages>> = { en };
const LOADERS: Record<Locale, () => Promise<Messages>> = {
  en: async () => en,
  fr: () => import('./fr').then((m) => m.fr),
};
const loading = new Map<Locale, Promise<void>>();

/**
 * Loads a language's messages. The boot awaits it for the language it will render (the one
 * the server rendered, when hydrating) so the first render needs no second pass.
 */
export function ensureLocale(locale: Locale): Promise<void> {
  if (CATALOGS[locale]) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = LOADERS[locale]().then(
      (messages) => {
        CATALOGS[locale] = messages;
      },
      (err: unknown) => {
        loading.delete(locale); // a later choice of this language tries again
        throw err;
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

export function isLocaleLoaded(locale: Locale): boolean {
  return CATALOGS[locale] !== undefined;
}
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
  const messages = CATALOGS[locale] ?? en;
  return interpolate(messages[key], { product: PRODUCT_NAME, ...params });
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

/** The language this browser asks for (stored choice, then its languages). */
export function browserLocale(): Locale {
  return detectLocale(readStored(), navigator.languages ?? [navigator.language]);
}

export function I18nProvider({ children }: { children: ReactNode }) {
  // The language shown is always one whose messages are loaded: English until another's arrive.
  const [wanted, setWanted] = useState<Locale>(browserLocale);
  const [locale, setLocaleState] = useState<Locale>(() => (isLocaleLoaded(wanted) ? wanted : 'en'));

  useEffect(() => {
    if (wanted === locale) return;
    let current = true;
    ensureLocale(wanted).then(
      () => {
        if (current) setLocaleState(wanted);
      },
      () => {
        // Offline or a failed deploy: stay in the language shown, the choice can be made again.
        if (current) setWanted(locale);
      },
    );
    return () => {
      current = false;
    };
  }, [wanted, locale]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    setWanted(next);
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
