import type { ReactNode } from 'react';
import { I18nProvider, type Locale } from '../i18n/i18n';
import { type EmbeddedData, EmbeddedDataProvider } from '../lib/embedded-data';

/**
 * `locale`: the language the page is rendered in (server) or was rendered in (hydration).
 * `data`: the server's answers for this render; the browser passes none and reads the page's.
 */
export function AppProvider({
  children,
  locale,
  data,
}: {
  children: ReactNode;
  locale?: Locale;
  data?: EmbeddedData;
}) {
  return (
    <EmbeddedDataProvider value={data ?? null}>
      <I18nProvider {...(locale ? { initial: locale } : {})}>{children}</I18nProvider>
    </EmbeddedDataProvider>
  );
}
