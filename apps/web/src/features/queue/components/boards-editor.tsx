import { useCallback, useEffect, useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { type Board, createBoard, listBoards, revokeBoard } from '../api/queue-api';
import { queueErrorKey } from '../lib/queue-errors';
import { formatInstant } from '../lib/queue-view';
import { boardUrl } from '../lib/setup-forms';

interface CreateState {
  notice: Notice | null;
  /** The new board's address: shown this once (the server keeps only its hash). */
  link: string | null;
}

/** The board links: made (the address shown once, with Copy), listed, revoked. */
export function BoardsEditor() {
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  const linkId = useId();
  const [boards, setBoards] = useState<Board[] | null>(null);
  const [loadFailed, setLoadFailed] = useState<unknown>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setBoards((await listBoards()).boards);
      setLoadFailed(null);
    } catch (failure) {
      setLoadFailed(failure);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const form = useFormAction<CreateState>(
    async ({ element, data }) => {
      const name = formText(data, 'name', true);
      if (!name) {
        return { notice: { tone: 'error', text: t('queueSetup.boards.nameRequired') }, link: null };
      }
      try {
        const { token } = await createBoard(name);
        element.reset();
        setCopied(false);
        await load();
        return { notice: null, link: boardUrl(window.location.origin, token) };
      } catch (failure) {
        return { notice: { tone: 'error', text: t(queueErrorKey(failure)) }, link: null };
      }
    },
    { notice: null, link: null },
  );

  const revoke = async (board: Board) => {
    setNotice(null);
    try {
      await revokeBoard(board.board_id);
      setNotice({ tone: 'success', text: t('queueSetup.boards.revoked', { name: board.name }) });
      await load();
    } catch (failure) {
      setNotice({ tone: 'error', text: t(queueErrorKey(failure)) });
    } finally {
      setRevoking(null);
    }
  };

  const { link } = form.state;
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('queueSetup.boards.title')}</h2>
      <p className="hint">{t('queueSetup.boards.body')}</p>
      {boards === null ? (
        loadFailed ? (
          <p className="alert alert--error" role="alert">
            {t(queueErrorKey(loadFailed))}
          </p>
        ) : (
          <Spinner label={t('common.loading')} />
        )
      ) : boards.length === 0 ? (
        <p className="empty-state">{t('queueSetup.boards.none')}</p>
      ) : (
        <ul className="queue-list" data-testid="board-list">
          {boards.map((b) => (
            <li key={b.board_id}>
              <div className="queue-list__head">
                <p>
                  <strong>{b.name}</strong>
                </p>
                {b.revoked_at ? null : revoking === b.board_id ? (
                  <div className="queue-actions">
                    <button
                      type="button"
                      className="btn btn--secondary btn--small btn--danger-text"
                      onClick={() => void revoke(b)}
                    >
                      {t('queueSetup.boards.revokeConfirm')}
                    </button>
                    <button
                      type="button"
                      className="btn btn--secondary btn--small"
                      onClick={() => setRevoking(null)}
                    >
                      {t('queueSetup.counters.keep')}
                    </button>
                  </div>
                ) : (
                  <button
                    type="button"
                    className="btn btn--secondary btn--small btn--danger-text"
                    onClick={() => setRevoking(b.board_id)}
                  >
                    {t('queueSetup.boards.revoke')}
                    <span className="visually-hidden"> — {b.name}</span>
                  </button>
                )}
              </div>
              <p className="queue-list__meta">
                {b.revoked_at
                  ? t('queueSetup.boards.revokedAt', {
                      date: formatInstant(b.revoked_at, intlLocale),
                    })
                  : t('queueSetup.boards.createdAt', {
                      date: formatInstant(b.created_at, intlLocale),
                    })}
              </p>
            </li>
          ))}
        </ul>
      )}
      <FormNotice notice={notice} />

      <form onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('queueSetup.boards.name')}
          hint={t('queueSetup.boards.nameHint')}
          name="name"
          maxLength={60}
          autoComplete="off"
        />
        <FormNotice notice={form.state.notice}>
          {link ? (
            <div className="alert alert--success">
              <p>{t('queueSetup.boards.once')}</p>
              <label htmlFor={linkId} className="visually-hidden">
                {t('queueSetup.boards.link')}
              </label>
              <div className="queue-link">
                <input
                  id={linkId}
                  className="input"
                  readOnly
                  value={link}
                  data-testid="board-link"
                  onFocus={(event) => event.currentTarget.select()}
                />
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => {
                    void navigator.clipboard
                      ?.writeText(link)
                      .then(() => setCopied(true))
                      .catch(() => setCopied(false));
                  }}
                >
                  {copied ? t('queueSetup.boards.copied') : t('queueSetup.boards.copy')}
                </button>
              </div>
            </div>
          ) : null}
        </FormNotice>
        <SubmitButton
          busy={form.pending}
          label={t('queueSetup.boards.create')}
          busyLabel={t('queueSetup.saving')}
        />
      </form>
    </section>
  );
}
