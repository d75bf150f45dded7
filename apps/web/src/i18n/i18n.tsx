import { detectLocale, isLocale, LOCALE_COOKIE, type Locale } from '@qless/contract/web-page';
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

// The language names the server shares (it renders in the cookie's language): declared once
// in the contract, offered here to the app.
export { detectLocale, isLocale, LOCALES, type Locale } from '@qless/contract/web-page';

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
const AMOUNT = {
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }),
  fr: new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 }),
};
/** "4,200 XAF", "4 200 FCFA": thousands grouped as each language writes them. */
const MONEY: Record<Locale, (amount: number) => string> = {
  en: (amount) => `${AMOUNT.en.format(amount)} XAF`,
  fr: (amount) => `${AMOUNT.fr.format(amount)}\u00a0FCFA`,
};

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

/**
 * A message in a language other than the page's (a printed ticket says both): its catalogue
 * must be loaded first (ensureLocale), else English.
 */
export const translateIn: (locale: Locale, key: MessageKey, params?: Params) => string = translate;

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

/**
 * Whether the reader chose a language on this device (stored, or the cookie the app writes):
 * a page may then follow its own default (a feedback link's visit language) only when not.
 */
export function localeChosen(): boolean {
  if (isLocale(readStored())) return true;
  return typeof document !== 'undefined' && document.cookie.includes(`${LOCALE_COOKIE}=`);
}

/** The language this browser asks for (stored choice, then its languages). */
export function browserLocale(): Locale {
  return detectLocale(readStored(), navigator.languages ?? [navigator.language]);
}

function writeChoice(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode: the choice lasts for this visit only.
  }
  // A year; Lax: sent with the top-level page loads the server renders. (The Cookie Store
  // API is not in every browser our readers use.)
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed name and a two-letter value.
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * `initial`: the language the page was rendered in (the server's choice, and the browser's
 * first render when it hydrates that page, read from `<html lang>`; the boot has loaded its
 * messages). Without it, the stored choice, then the browser's languages.
 */
export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Locale }) {
  // The language shown is always one whose messages are loaded: English until another's arrive.
  const [wanted, setWanted] = useState<Locale>(() => initial ?? browserLocale());
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration.
  useEffect(() => {
    if (!initial) return;
    // A choice stored before the cookie existed wins over the server's guess (and is sent
    // from now on).
    const stored = readStored();
    if (isLocale(stored) && stored !== initial) {
      setWanted(stored);
      writeChoice(stored);
    }
  }, []);

  const setLocale = useCallback((next: Locale) => {
    setWanted(next);
    writeChoice(next);
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
