import { useEffect } from 'react';
import { PRODUCT_NAME } from '../config';
import type { MessageKey } from '../i18n/en';
import { type Params, useI18n } from '../i18n/i18n';

export function useDocumentTitle(key: MessageKey | null, params?: Params): void {
  const { t } = useI18n();
  const title = key ? `${t(key, params)} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
