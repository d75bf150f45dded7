import type { KioskPaper, VisitSlip } from '@qless/contract';
import { useCallback, useId, useState } from 'react';
import { PrintableSlip } from '../../../components/slip/ticket-slip';
import { useI18n } from '../../../i18n/i18n';
import { getSlip } from '../api/queue-api';

const PAPER_KEY = 'qless.counterPaper';
const PAPERS: readonly KioskPaper[] = ['58mm', '80mm', 'a6'];

function storedPaper(): KioskPaper {
  try {
    const stored = localStorage.getItem(PAPER_KEY);
    return PAPERS.find((p) => p === stored) ?? 'a6';
  } catch {
    return 'a6';
  }
}

/**
 * "Print ticket" for a walk-in staff just added (decision 135): the same slip as the kiosk's,
 * on the paper this desk's printer takes (kept on this device; an A6 sheet by default, for an
 * ordinary printer).
 */
export function PrintSlip({ visitId }: { visitId: string }) {
  const { t } = useI18n();
  const selectId = useId();
  const [paper, setPaper] = useState<KioskPaper>(storedPaper);
  const [slip, setSlip] = useState<VisitSlip | null>(null);
  const [failed, setFailed] = useState(false);
  const [asked, setAsked] = useState(0);

  // A second tap while the slip is fetched prints nothing more.
  const [fetching, setFetching] = useState(false);
  const print = async () => {
    if (fetching) return;
    setFailed(false);
    setFetching(true);
    try {
      setSlip((await getSlip(visitId)).slip);
      setAsked((n) => n + 1);
    } catch {
      setFailed(true);
    } finally {
      setFetching(false);
    }
  };
  // Each press prints once, when the slip is ready.
  const [printedAsk, setPrintedAsk] = useState(0);
  const onReady = useCallback(() => {
    if (asked === printedAsk) return;
    setPrintedAsk(asked);
    window.print();
  }, [asked, printedAsk]);

  return (
    <div className="queue-print">
      <label htmlFor={selectId}>{t('slip.paperLabel')}</label>
      <select
        id={selectId}
        className="input"
        value={paper}
        onChange={(event) => {
          const next = event.currentTarget.value as KioskPaper;
          setPaper(next);
          try {
            localStorage.setItem(PAPER_KEY, next);
          } catch {
            // Not kept on this device: chosen again next time.
          }
        }}
      >
        {PAPERS.map((p) => (
          <option key={p} value={p}>
            {t(`slip.paper.${p}`)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn btn--secondary"
        disabled={fetching}
        onClick={() => void print()}
      >
        {t('slip.print')}
      </button>
      {failed ? (
        <p className="field-error" role="alert">
          {t('slip.failed')}
        </p>
      ) : null}
      {slip ? (
        <PrintableSlip
          key={`${slip.visit_id}-${asked}`}
          slip={slip}
          paper={paper}
          onReady={onReady}
        />
      ) : null}
    </div>
  );
}
