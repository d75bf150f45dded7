import type { AuditEntry, Role } from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { useAsync } from '../../../lib/use-async';
import { type AuditFilters, type AuditScope, getAudit, NO_FILTERS } from '../api/get-audit';
import { AUDIT_ACTIONS, actionText, areaActions, outcomeKind } from '../lib/audit-actions';
// Its own stylesheet, loaded with this chunk (never in the public pages' inlined CSS).
import auditCss from './audit.css?url';

const ROLE_KEYS: Record<Role, MessageKey> = {
  org_admin: 'area.role.org_admin',
  branch_manager: 'area.role.branch_manager',
  staff: 'area.role.staff',
  operator: 'area.role.operator',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id is shown by its first 8 characters (the whole in its tooltip), other values whole. */
function TargetValue({ value }: { value: string }) {
  if (!UUID.test(value)) return <>{value}</>;
  return <abbr title={value}>{value.slice(0, 8)}</abbr>;
}

function Entry({ entry, timeZone }: { entry: AuditEntry; timeZone: string }) {
  const { t, intlLocale } = useI18n();
  const kind = outcomeKind(entry.outcome);
  const when = new Intl.DateTimeFormat(intlLocale, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone,
  }).format(new Date(entry.at));
  const targets = Object.entries(entry.target);
  return (
    <li className="audit-entry" data-action={entry.action} data-outcome={entry.outcome}>
      <p className="audit-entry__head">
        <strong className="audit-entry__what">{actionText(entry.action, t)}</strong>
        <span className={`audit-tag audit-tag--${kind}`}>
          {t(`audit.outcome.${kind}`, { status: entry.outcome })}
        </span>
      </p>
      <p className="audit-entry__when">
        <time dateTime={entry.at}>{when}</time>
      </p>
      <dl className="audit-entry__facts">
        <dt>{t('audit.who')}</dt>
        <dd>
          {entry.actor_email ?? t('audit.nobody')}
          {entry.actor_role ? ` · ${t(ROLE_KEYS[entry.actor_role])}` : null}
        </dd>
        {entry.organization_name ? (
          <>
            <dt>{t('audit.branch')}</dt>
            <dd>{entry.organization_name}</dd>
          </>
        ) : null}
        {targets.length > 0 ? (
          <>
            <dt>{t('audit.target')}</dt>
            <dd>
              {targets.map(([name, value], i) => (
                <span key={name}>
                  {i > 0 ? ', ' : null}
                  {name}: <TargetValue value={value} />
                </span>
              ))}
            </dd>
          </>
        ) : null}
        <dt>{t('audit.from')}</dt>
        <dd>
          {entry.client_address ?? '—'}
          {entry.user_agent ? <span className="audit-entry__agent">{entry.user_agent}</span> : null}
        </dd>
      </dl>
    </li>
  );
}

function Filters({
  actions,
  initial,
  onApply,
}: {
  actions: string[];
  initial: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const set = (field: keyof AuditFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const options = actions
    .map((key) => ({ key, text: actionText(key, t) }))
    .sort((a, b) => a.text.localeCompare(b.text));
  return (
    <form className="audit-filters" onSubmit={submit} aria-label={t('audit.filters')}>
      <div className="field">
        <label htmlFor={`${id}-who`}>{t('audit.filter.who')}</label>
        <input
          id={`${id}-who`}
          className="input"
          type="search"
          inputMode="email"
          autoComplete="off"
          placeholder={t('audit.filter.whoHint')}
          value={draft.actor}
          onChange={(e) => set('actor')(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-what`}>{t('audit.filter.what')}</label>
        <select
          id={`${id}-what`}
          className="input"
          value={draft.action}
          onChange={(e) => set('action')(e.target.value)}
        >
          <option value="">{t('audit.filter.anyAction')}</option>
          {options.map((o) => (
            <option key={o.key} value={o.key}>
              {o.text}
            </option>
          ))}
        </select>
      </div>
      <div className="audit-filters__dates">
        <div className="field">
          <label htmlFor={`${id}-from`}>{t('audit.filter.from')}</label>
          <input
            id={`${id}-from`}
            className="input"
            type="date"
            value={draft.from}
            onChange={(e) => set('from')(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{t('audit.filter.to')}</label>
          <input
            id={`${id}-to`}
            className="input"
            type="date"
            value={draft.to}
            onChange={(e) => set('to')(e.target.value)}
          />
        </div>
      </div>
      <div className="audit-filters__buttons">
        <button type="submit" className="btn btn--primary">
          {t('audit.filter.apply')}
        </button>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          {t('audit.filter.clear')}
        </button>
      </div>
    </form>
  );
}

/**
 * The audit log (decision 032), newest first, with filters (who, what, days) and older
 * entries a page at a time. `timeZone` is the reader's: the organization's in its area,
 * Douala in the console; the days of the filters are read in it by the server too.
 */
export function AuditLog({ scope, timeZone }: { scope: AuditScope; timeZone: string }) {
  const { t } = useI18n();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [attempt, setAttempt] = useState(0);
  // Older pages fetched with "More", for the filters they were fetched under.
  const [older, setOlder] = useState<{ entries: AuditEntry[]; cursor: string | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  const first = useAsync(
    (signal) => getAudit(scope, filters, null, signal),
    [scope, filters, attempt],
  );
  const actions = scope === 'platform' ? Object.keys(AUDIT_ACTIONS) : areaActions();

  const apply = (next: AuditFilters) => {
    setOlder(null);
    setMoreFailed(false);
    setFilters(next);
    setAttempt((n) => n + 1);
  };

  const entries =
    first.status === 'success' ? [...first.data.entries, ...(older?.entries ?? [])] : [];
  const cursor =
    first.status === 'success' ? (older ? older.cursor : first.data.next_cursor) : null;

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await getAudit(scope, filters, cursor);
      setOlder((o) => ({
        entries: [...(o?.entries ?? []), ...page.entries],
        cursor: page.next_cursor,
      }));
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <div className="audit">
      <link rel="stylesheet" href={auditCss} precedence="area" />
      <p className="page-lead">{t('audit.lead')}</p>
      <Filters actions={actions} initial={filters} onApply={apply} />
      {first.status === 'loading' ? <Spinner label={t('common.loading')} /> : null}
      {first.status === 'error' ? (
        <Alert tone="error">
          <p>{t('audit.loadFailed')}</p>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setAttempt((n) => n + 1)}
          >
            {t('common.retry')}
          </button>
        </Alert>
      ) : null}
      {first.status === 'success' && entries.length === 0 ? (
        <p className="empty-state">{t('audit.empty')}</p>
      ) : null}
      {entries.length > 0 ? (
        <ol className="audit-list" aria-label={t('audit.title')}>
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} timeZone={timeZone} />
          ))}
        </ol>
      ) : null}
      {moreFailed ? <Alert tone="error">{t('audit.loadFailed')}</Alert> : null}
      {cursor ? (
        <button
          type="button"
          className="btn btn--secondary audit-more"
          disabled={loadingMore}
          onClick={() => void loadMore()}
        >
          {loadingMore ? t('common.loading') : t('audit.more')}
        </button>
      ) : null}
    </div>
  );
}
