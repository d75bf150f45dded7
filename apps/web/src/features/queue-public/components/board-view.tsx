import type { BoardCall, BoardSnapshot } from '@qless/contract';
import { useI18n } from '../../../i18n/i18n';
import { recentCalls } from '../lib/board-calls';

/** Next numbers and last calls shown at most (the snapshot carries up to 10 of each). */
const NEXT_SHOWN = 9;
const RECENT_SHOWN = 5;

/**
 * The board as the hall reads it at 1920×1080 from across the room: the
 * live call in a yellow banner; per counter the number it calls (yellow, "go now") or serves
 * (white), or "paused"; the next numbers; the last calls with their counters. Every label in
 * both languages (the voice says both). Numbers only, never a name.
 */
export function BoardView({
  board,
  banner,
  offline,
  joinCode = null,
  joinSms = null,
}: {
  board: BoardSnapshot;
  banner: BoardCall | null;
  offline: boolean;
  /** The code a visitor types to join from the poster (decision 125); null: none asked. */
  joinCode?: string | null;
  /** What to text to join by SMS today, and where (decision 136); null: not offered. */
  joinSms?: { text: string; number: string } | null;
}) {
  const { t } = useI18n();
  const rows = board.serving.length;
  const recent = recentCalls(board.calls ?? [], RECENT_SHOWN);
  return (
    <div
      className={banner ? 'board board--calling' : 'board'}
      data-board-state="ready"
      data-seq={board.calls?.[0]?.seq ?? board.last_call?.seq ?? ''}
      style={{ '--board-rows': Math.max(rows, 3) } as React.CSSProperties}
    >
      <header className="board__top">
        <h1 className="board__org">{board.organization_name}</h1>
        {offline ? (
          <span className="board__offline" role="status">
            {t('queue.board.reconnecting')}
          </span>
        ) : null}
        {joinCode ? (
          <p className="board__join" data-testid="board-join-code">
            <span className="board__join-scan">{t('queue.board.joinScan')}</span>
            <span className="board__join-label">{t('queue.board.joinCode')}</span>
            <span className="board__join-code">{joinCode}</span>
          </p>
        ) : null}
        {joinSms ? (
          <p className="board__join board__sms" data-testid="board-join-sms">
            <span className="board__join-scan">
              {t('queue.board.joinSms', { number: joinSms.number })}
            </span>
            <span className="board__sms-text">{joinSms.text}</span>
          </p>
        ) : null}
      </header>
      <div className="board__call" aria-live="polite">
        {banner ? (
          <p
            key={banner.seq}
            className="board__call-text"
            data-testid="board-call"
            data-call-seq={banner.seq}
          >
            <span className="board__call-row">
              <span className="board__call-label">{t('queue.board.lastCall')}</span>
              <span className="board__call-number">{banner.number}</span>
              <span className="board__call-arrow" aria-hidden="true">
                →
              </span>
              <span className="board__call-counter">{banner.counter_name}</span>
            </span>
            {/* On a line of its own: the counter's name is never cut for it (decision 139). */}
            {banner.out_of_order ? (
              <span className="board__out-of-turn" data-testid="board-out-of-turn">
                {t('queue.board.outOfTurn')}
              </span>
            ) : null}
          </p>
        ) : null}
      </div>
      <section className="board__serving" aria-labelledby="board-serving">
        <h2 id="board-serving" className="board__heading">
          {t('queue.board.nowServing')}
        </h2>
        <table className="board__table">
          <colgroup>
            <col className="board__counter-col" />
            <col />
          </colgroup>
          <thead>
            <tr className="board__columns">
              <th scope="col">{t('queue.board.counter')}</th>
              <th scope="col">{t('queue.board.number')}</th>
            </tr>
          </thead>
          <tbody>
            {board.serving.map((row) => (
              <tr
                key={row.counter_name}
                className={`board__row board__row--${row.paused ? 'paused' : (row.state ?? 'free')}`}
                data-testid="board-row"
              >
                <th scope="row" className="board__counter">
                  {row.counter_name}
                </th>
                <td className="board__number">
                  {row.paused ? (
                    <span className="board__paused">{t('queue.board.paused')}</span>
                  ) : (
                    (row.number ?? '—')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="board__legend">
          <span className="board__legend-called">{t('queue.board.legendCalled')}</span>
          <span className="board__legend-serving">{t('queue.board.legendServing')}</span>
        </p>
      </section>
      <section className="board__next" aria-labelledby="board-next">
        <h2 id="board-next" className="board__heading">
          {t('queue.board.next')}
        </h2>
        {board.next.length ? (
          <ol className="board__next-list">
            {board.next.slice(0, NEXT_SHOWN).map((number) => (
              <li key={number}>{number}</li>
            ))}
          </ol>
        ) : (
          <p className="board__empty">{t('queue.board.noNext')}</p>
        )}
      </section>
      <section className="board__recent" aria-labelledby="board-recent">
        <h2 id="board-recent" className="board__heading">
          {t('queue.board.recent')}
        </h2>
        {recent.length ? (
          <ol className="board__recent-list" data-testid="board-recent">
            {recent.map((call) => (
              <li key={call.seq}>
                <span className="board__recent-number">{call.number}</span>
                {call.out_of_order ? (
                  <span className="board__out-of-turn">{t('queue.board.outOfTurnShort')}</span>
                ) : null}
                <span className="board__recent-arrow" aria-hidden="true">
                  →
                </span>
                <span className="board__recent-counter">{call.counter_name}</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="board__empty">{t('queue.board.noRecent')}</p>
        )}
      </section>
    </div>
  );
}
