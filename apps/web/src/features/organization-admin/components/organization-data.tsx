import type { OrganizationDataResponse } from '@qless/contract';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, isAbort } from '../../../lib/api-client';
import { getOrganizationData } from '../api/get-organization-data';

type DataState =
  | { status: 'loading' }
  | { status: 'ready'; data: OrganizationDataResponse }
  | { status: 'error'; error: unknown };

interface OrganizationData {
  state: DataState;
  /** Loads again in the background (the screen keeps showing what it has meanwhile). */
  reload: () => Promise<void>;
}

const DataContext = createContext<OrganizationData | null>(null);

/** One read of GET /organization/data shared by the Dashboard, Services and Profile. */
export function OrganizationDataProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<DataState>({ status: 'loading' });

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      const data = await getOrganizationData(signal);
      setState({ status: 'ready', data });
    } catch (error) {
      if (isAbort(error)) return;
      // A 401 is the session's business (it shows the signed-out state); keep what we had.
      if (error instanceof ApiError && error.status === 401) return;
      setState((s) => (s.status === 'ready' ? s : { status: 'error', error }));
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const value = useMemo(() => ({ state, reload: () => load() }), [state, load]);
  return <DataContext.Provider value={value}>{children}</DataContext.Provider>;
}

export function useOrganizationData(): OrganizationData {
  const value = useContext(DataContext);
  if (!value) throw new Error('useOrganizationData outside OrganizationDataProvider');
  return value;
}

/** Renders `children` with the data once loaded; the loading indicator or the error before. */
export function WithOrganizationData({
  children,
}: {
  children: (data: OrganizationDataResponse, reload: () => Promise<void>) => ReactNode;
}) {
  const { t } = useI18n();
  const { state, reload } = useOrganizationData();
  const [retrying, setRetrying] = useState(false);
  if (state.status === 'loading') return <Spinner label={t('common.loading')} />;
  if (state.status === 'error') {
    const forbidden = state.error instanceof ApiError && state.error.status === 403;
    return (
      <Alert tone="error">
        <p>{forbidden ? t('error.FORBIDDEN') : t('area.loadFailed')}</p>
        {forbidden ? null : (
          <button
            type="button"
            className="btn btn--secondary btn--small"
            disabled={retrying}
            onClick={async () => {
              setRetrying(true);
              await reload();
              setRetrying(false);
            }}
          >
            {t('common.retry')}
          </button>
        )}
      </Alert>
    );
  }
  return <>{children(state.data, reload)}</>;
}
