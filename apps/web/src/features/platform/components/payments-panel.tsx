import { useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { useAsync } from '../../../lib/use-async';
import { listPaymentsToReview } from '../api/console';
import { formatInstant } from '../lib/format';
import { ListState, Pager } from './shared';

const PAGE_SIZE = 20;

/** Read-only: what to look at with the provider; nothing is changed from here. */
export function PaymentsPanel() {
  const { t, intlLocale } = useI18n();
  const [page, setPage] = useState(1);
  const state = useAsync((signal) => listPaymentsToReview(page, PAGE_SIZE, signal), [page]);
  return (
    <div className="console-panel">
      <p className="page-lead">{t('platform.payments.lead')}</p>
      <ListState state={state}>
        {(data) =>
          data.payments.length === 0 ? (
            <p className="empty-state">{t('platform.payments.empty')}</p>
          ) : (
            <>
              <ul className="console-list">
                {data.payments.map((p) => (
                  <li key={p.id} className="console-card">
                    <dl className="console-rows">
                      <dt>{t('platform.payments.reference')}</dt>
                      <dd className="console-code">{p.reference}</dd>
                      <dt>{t('platform.payments.provider')}</dt>
                      <dd>{p.provider}</dd>
                      <dt>{t('platform.payments.status')}</dt>
                      <dd>{p.status}</dd>
                      <dt>{t('platform.payments.reason')}</dt>
                      <dd className="console-code">{p.review_reason ?? '—'}</dd>
                      <dt>{t('platform.payments.amount')}</dt>
                      <dd>
                        {p.amount} {p.currency}
                      </dd>
                      <dt>{t('platform.payments.created')}</dt>
                      <dd>{formatInstant(p.created_at, intlLocale)}</dd>
                    </dl>
                  </li>
                ))}
              </ul>
              <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />
            </>
          )
        }
      </ListState>
    </div>
  );
}
