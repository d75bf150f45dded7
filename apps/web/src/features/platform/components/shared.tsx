import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import type { AsyncState } from '../../../lib/use-async';

/** Loading, failure or the list; each panel shows its own. */
export function ListState<T>({
  state,
  children,
}: {
  state: AsyncState<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useI18n();
  if (state.status === 'loading') return <Spinner label={t('common.loading')} />;
  if (state.status === 'error') return <Alert tone="error">{t('platform.loadFailed')}</Alert>;
  return <>{children(state.data)}</>;
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <div className="console-pager">
      <button
        type="button"
        className="btn btn--secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('common.previous')}
      </button>
      <span>{t('common.page', { page, total: pages })}</span>
      <button
        type="button"
        className="btn btn--secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('common.next')}
      </button>
    </div>
  );
}
