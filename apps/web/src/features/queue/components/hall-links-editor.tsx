import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { InputField, SelectField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import {
  createBoard,
  createKiosk,
  type KioskPaper,
  listBoards,
  listKiosks,
  revokeBoard,
  revokeKiosk,
} from '../api/queue-api';
import { queueErrorKey } from '../lib/queue-errors';
import { formatInstant } from '../lib/queue-view';
import { boardUrl, kioskUrl } from '../lib/setup-forms';

/** A board or kiosk link as the admin sees it (its token only in the creation's answer). */
interface HallLink {
  id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
  /** A kiosk's printer paper. */
  paper?: KioskPaper;
}

interface HallLinkKind {
  /** The texts' group (`queueSetup.boards.*`, `queueSetup.kiosks.*`) and test ids' prefix. */
  texts: 'boards' | 'kiosks';
  testId: 'board' | 'kiosk';
  load(): Promise<HallLink[]>;
  /** Makes one from the form; answers its address (shown once). */
  create(name: string, data: FormData): Promise<string>;
  revoke(id: string): Promise<unknown>;
  /** More fields of the form (a kiosk's paper). */
  fields?: ReactNode;
}

interface CreateState {
  notice: Notice | null;
  /** The new board's address: shown this once (the server keeps only its hash). */
  link: string | null;
}

/** The board links: a screen in the hall showing the numbers called. */
export function BoardsEditor() {
  return (
    <HallLinksEditor
      kind={{
        texts: 'boards',
        testId: 'board',
        load: async () =>
          (await listBoards()).boards.map(({ board_id, ...b }) => ({ id: board_id, ...b })),
        create: async (name) => boardUrl(window.location.origin, (await createBoard(name)).token),
        revoke: revokeBoard,
      }}
    />
  );
}

/** The kiosk links (decision 135): a touch screen at the door that hands out numbers. */
export function KiosksEditor() {
  const { t } = useI18n();
  return (
    <HallLinksEditor
      kind={{
        texts: 'kiosks',
        testId: 'kiosk',
        load: async () =>
          (await listKiosks()).kiosks.map(({ kiosk_id, ...k }) => ({ id: kiosk_id, ...k })),
        create: async (name, data) => {
          const paper = formText(data, 'paper') as KioskPaper;
          return kioskUrl(window.location.origin, (await createKiosk(name, paper)).token);
        },
        revoke: revokeKiosk,
        fields: (
          <SelectField
            label={t('queueSetup.kiosks.paper')}
            hint={t('queueSetup.kiosks.paperHint')}
            name="paper"
            defaultValue="58mm"
          >
            <option value="58mm">{t('slip.paper.58mm')}</option>
            <option value="80mm">{t('slip.paper.80mm')}</option>
            <option value="a6">{t('slip.paper.a6')}</option>
          </SelectField>
        ),
      }}
    />
  );
}

/** Board or kiosk links: made (the address shown once, with Copy), listed, revoked. */
function HallLinksEditor({ kind }: { kind: HallLinkKind }) {
  const { t, intlLocale } = useI18n();
  const k = <Key extends string>(key: Key) => `queueSetup.${kind.texts}.${key}` as const;
  const titleId = useId();
  const linkId = useId();
  const [boards, setBoards] = useState<HallLink[] | null>(null);
  const [loadFailed, setLoadFailed] = useState<unknown>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setBoards(await kind.load());
      setLoadFailed(null);
    } catch (failure) {
      setLoadFailed(failure);
    }
  }, [kind.load]);
  useEffect(() => {
    void load();
  }, [load]);

  const form = useFormAction<CreateState>(
    async ({ element, data }) => {
      const name = formText(data, 'name', true);
      if (!name) {
        return { notice: { tone: 'error', text: t(k('nameRequired')) }, link: null };
      }
      try {
        const made = await kind.create(name, data);
        element.reset();
        setCopied(false);
        await load();
        return { notice: null, link: made };
      } catch (failure) {
        return { notice: { tone: 'error', text: t(queueErrorKey(failure)) }, link: null };
      }
    },
    { notice: null, link: null },
  );

  const revoke = async (board: HallLink) => {
    setNotice(null);
    try {
      await kind.revoke(board.id);
      setNotice({ tone: 'success', text: t(k('revoked'), { name: board.name }) });
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
      <h2 id={titleId}>{t(k('title'))}</h2>
      <p className="hint">{t(k('body'))}</p>
      {boards === null ? (
        loadFailed ? (
          <p className="alert alert--error" role="alert">
            {t(queueErrorKey(loadFailed))}
          </p>
        ) : (
          <Spinner label={t('common.loading')} />
        )
      ) : boards.length === 0 ? (
        <p className="empty-state">{t(k('none'))}</p>
      ) : (
        <ul className="queue-list" data-testid={`${kind.testId}-list`}>
          {boards.map((b) => (
            <li key={b.id}>
              <div className="queue-list__head">
                <p>
                  <strong>{b.name}</strong>
                  {b.paper ? ` · ${t(`slip.paper.${b.paper}`)}` : null}
                </p>
                {b.revoked_at ? null : revoking === b.id ? (
                  <div className="queue-actions">
                    <button
                      type="button"
                      className="btn btn--secondary btn--small btn--danger-text"
                      onClick={() => void revoke(b)}
                    >
                      {t(k('revokeConfirm'))}
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
                    onClick={() => setRevoking(b.id)}
                  >
                    {t(k('revoke'))}
                    <span className="visually-hidden"> — {b.name}</span>
                  </button>
                )}
              </div>
              <p className="queue-list__meta">
                {b.revoked_at
                  ? t(k('revokedAt'), {
                      date: formatInstant(b.revoked_at, intlLocale),
                    })
                  : t(k('createdAt'), {
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
          label={t(k('name'))}
          hint={t(k('nameHint'))}
          name="name"
          maxLength={60}
          autoComplete="off"
        />
        {kind.fields}
        <FormNotice notice={form.state.notice}>
          {link ? (
            <div className="alert alert--success">
              <p>{t(k('once'))}</p>
              <label htmlFor={linkId} className="visually-hidden">
                {t(k('link'))}
              </label>
              <div className="queue-link">
                <input
                  id={linkId}
                  className="input"
                  readOnly
                  value={link}
                  data-testid={`${kind.testId}-link`}
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
                  {copied ? t(k('copied')) : t(k('copy'))}
                </button>
              </div>
            </div>
          ) : null}
        </FormNotice>
        <SubmitButton
          busy={form.pending}
          label={t(k('create'))}
          busyLabel={t('queueSetup.saving')}
        />
      </form>
    </section>
  );
}
