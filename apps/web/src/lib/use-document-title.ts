import { createContext, useContext, useEffect } from 'react';
import { PRODUCT_NAME } from '../config';
import type { MessageKey } from '../i18n/en';
import { type Params, useI18n } from '../i18n/i18n';

/** On the server: told each page title as it renders (the last one is the page's). */
export const TitleSink = createContext<((title: string) => void) | null>(null);

export function useDocumentTitle(key: MessageKey | null, params?: Params): void {
  const { t } = useI18n();
  const title = key ? `${t(key, params)} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  useContext(TitleSink)?.(title);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
