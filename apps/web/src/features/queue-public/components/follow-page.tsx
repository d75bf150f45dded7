import { normalizeFollowCode } from '@qless/contract';
import { useEffect, useId, useState } from 'react';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

type Look = { kind: 'looking' } | { kind: 'failed'; text: MessageKey };

const REFUSALS: Partial<Record<string, MessageKey>> = {
  INVALID_FOLLOW_CODE: 'follow.invalid',
  FOLLOW_CODE_NOT_FOUND: 'follow.notFound',
  RATE_LIMITED: 'follow.limited',
};

/**
 * A printed ticket's short code (decision 135), typed on any phone: the visitor's turn opens
 * (`open` goes to the visit's page with its key). A wrong code says so, with a field to type
 * it again.
 */
export function FollowPage({
  code,
  open,
  retype,
}: {
  code: string;
  open: (visitId: string, key: string) => void;
  retype: (code: string) => void;
}) {
  const { t } = useI18n();
  const fieldId = useId();
  const [look, setLook] = useState<Look>(() =>
    normalizeFollowCode(code) ? { kind: 'looking' } : { kind: 'failed', text: 'follow.invalid' },
  );

  useEffect(() => {
    const normal = normalizeFollowCode(code);
    if (!normal) return;
    let current = true;
    apiFetch<{ visit_id: string; key: string }>(apiPaths.follow(normal))
      .then((found) => {
        if (current) open(found.visit_id, found.key);
      })
      .catch((error: unknown) => {
        if (!current) return;
        const refused = error instanceof ApiError && error.code ? REFUSALS[error.code] : undefined;
        setLook({ kind: 'failed', text: refused ?? 'follow.failed' });
      });
    return () => {
      current = false;
    };
  }, [code, open]);

  return (
    <div className="container page-section page-section--narrow">
      <h1 className="page-title">{t('follow.title')}</h1>
      {look.kind === 'looking' ? (
        <p role="status">{t('common.loading')}</p>
      ) : (
        <>
          <p className="alert alert--error" role="alert">
            {t(look.text)}
          </p>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const typed = new FormData(event.currentTarget).get('code');
              if (typeof typed === 'string' && typed.trim()) retype(typed.trim());
            }}
          >
            <label htmlFor={fieldId}>{t('follow.code')}</label>
            <input
              id={fieldId}
              className="input"
              name="code"
              defaultValue={code}
              autoCapitalize="characters"
              autoComplete="off"
              maxLength={12}
            />
            <button type="submit" className="btn btn--primary">
              {t('follow.open')}
            </button>
          </form>
        </>
      )}
    </div>
  );
}
