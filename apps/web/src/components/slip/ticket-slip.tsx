import { formatFollowCode, type KioskPaper, type VisitSlip } from '@qless/contract';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { ensureLocale, type Locale, translateIn } from '../../i18n/i18n';
import { qrPath } from '../../lib/qr-path';
import slipCss from './slip.css?url';

const MARGIN = 2;

/**
 * The printed ticket of a walk-in (decision 135): black on white, the number as large as the
 * paper allows, the service, the branch, the date and time, the place and estimate when it was
 * issued, a QR and a short code to follow the turn on any phone later — in French and English
 * (a hall serves both). Shown on screen where it is rendered, and alone on the page when
 * printed (slip.css), on the paper given: 58 or 80 mm thermal roll, or an A6 sheet.
 */
export function TicketSlip({
  slip,
  paper,
  onReady,
}: {
  slip: VisitSlip;
  paper: KioskPaper;
  /** Once it can be printed: its QR drawn and both languages' messages loaded. */
  onReady?: () => void;
}) {
  const qr = useQrPath(slip.visit_url);
  const [languages, setLanguages] = useState(false);
  useEffect(() => {
    // Both languages are printed: the other one's messages are loaded once.
    void Promise.all([ensureLocale('fr'), ensureLocale('en')])
      .catch(() => undefined)
      .then(() => setLanguages(true));
  }, []);
  // A QR that cannot be drawn does not hold the ticket back: it prints with its code.
  const ready = qr !== null && languages;
  useEffect(() => {
    if (ready) onReady?.();
  }, [ready, onReady]);
  const time = (locale: Locale) =>
    new Intl.DateTimeFormat(locale === 'fr' ? 'fr-CM' : 'en-GB', {
      timeZone: slip.time_zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(slip.issued_at));
  const line = (locale: Locale) => {
    const t = (key: Parameters<typeof translateIn>[1], params?: Record<string, string | number>) =>
      translateIn(locale, key, params);
    const ahead =
      slip.position === null
        ? null
        : slip.position === 1
          ? t('slip.next')
          : t('slip.ahead', { count: slip.position - 1 });
    const estimate =
      slip.estimate && slip.counters_open && slip.estimate.max_minutes > 0
        ? t('slip.estimate', { min: slip.estimate.min_minutes, max: slip.estimate.max_minutes })
        : null;
    return { t, ahead, estimate };
  };
  const fr = line('fr');
  const en = line('en');
  return (
    <article className={`slip slip--${paper}`} data-testid="ticket-slip" lang="fr">
      {/* Its own stylesheet, loaded with the first slip: not in every page's inlined CSS. */}
      <link rel="stylesheet" href={slipCss} precedence="area" />
      <p className="slip__place">{slip.organization_name}</p>
      <p className="slip__label">
        {fr.t('slip.number')} · <span lang="en">{en.t('slip.number')}</span>
      </p>
      <p className="slip__number" data-testid="slip-number">
        {slip.number}
      </p>
      <p className="slip__service">
        {slip.service_name_fr ?? slip.service_name}
        {slip.service_name_fr && slip.service_name_fr !== slip.service_name ? (
          <span lang="en"> · {slip.service_name}</span>
        ) : null}
      </p>
      <p className="slip__time">{time('fr')}</p>
      {fr.ahead ? (
        <p className="slip__line">
          {fr.ahead}
          {fr.estimate ? ` · ${fr.estimate}` : ''}
          <br />
          <span lang="en">
            {en.ahead}
            {en.estimate ? ` · ${en.estimate}` : ''}
          </span>
        </p>
      ) : null}
      {qr && qr !== 'failed' ? (
        <svg
          className="slip__qr"
          role="img"
          aria-label={fr.t('slip.qr')}
          viewBox={`0 0 ${qr.size} ${qr.size}`}
          shapeRendering="crispEdges"
          data-link={slip.visit_url}
        >
          <rect width={qr.size} height={qr.size} fill="#fff" />
          <path d={qr.path} fill="#000" />
        </svg>
      ) : null}
      {slip.follow_code && slip.follow_url ? (
        <p className="slip__follow">
          {fr.t('slip.follow')}
          <br />
          <span lang="en">{en.t('slip.follow')}</span>
          <br />
          <span className="slip__url">
            {slip.follow_url.replace(/^https?:\/\//, '').replace(/\/[^/]+$/, '/')}
          </span>
          <br />
          <strong className="slip__code" data-testid="slip-code">
            {formatFollowCode(slip.follow_code)}
          </strong>
        </p>
      ) : null}
      <p className="slip__keep">
        {fr.t('slip.keep')}
        <br />
        <span lang="en">{en.t('slip.keep')}</span>
      </p>
    </article>
  );
}

/**
 * A slip held only to be printed (the kiosk, the counter): outside the app's tree, at the
 * body's top level, so that printed it is the page's only content (slip.css) and the page is
 * one slip long, not the screen's layout behind it.
 */
export function PrintableSlip(props: Parameters<typeof TicketSlip>[0]) {
  return createPortal(
    <div className="slip-print">
      <TicketSlip {...props} />
    </div>,
    document.body,
  );
}

/** The QR of the visit's link, drawn once the encoder (loaded on its own) is there. */
function useQrPath(link: string): { size: number; path: string } | 'failed' | null {
  const [drawn, setDrawn] = useState<{ size: number; path: string } | 'failed' | null>(null);
  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((loaded) => {
        const encoder: Pick<typeof loaded, 'create'> = loaded.default ?? loaded;
        const qr = encoder.create(link, { errorCorrectionLevel: 'M' });
        if (current)
          setDrawn({ size: qr.modules.size + 2 * MARGIN, path: qrPath(qr.modules, MARGIN) });
      })
      .catch(() => {
        if (current) setDrawn('failed');
      });
    return () => {
      current = false;
    };
  }, [link]);
  return drawn;
}
