import { useEffect, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { qrPath, TICKET_QR_OPTIONS, ticketQrSegments } from '../lib/ticket-qr';

const MARGIN = 2;

type Drawn = { size: number; path: string } | 'failed' | null;

/**
 * The ticket's QR code on its page, for the counter's scanner: the same compact token as
 * the PDF's. The encoder loads on its own (it is also the PDF's), and the square keeps its
 * size before it arrives, so nothing on the page moves when it is drawn.
 */
export function TicketQr({ token, code }: { token: string; code: string }) {
  const { t } = useI18n();
  const [drawn, setDrawn] = useState<Drawn>(null);

  useEffect(() => {
    let current = true;
    setDrawn(null);
    import('qrcode')
      // The encoding in a task of its own, not in the one that evaluated the encoder's module:
      // two shorter tasks block a slow phone's taps less than one long one.
      .then(
        (loaded) => new Promise<typeof loaded>((resolve) => setTimeout(() => resolve(loaded), 0)),
      )
      .then((loaded) => {
        // A CommonJS package: its functions sit on `default` or on the module, by bundler.
        const encoder: Pick<typeof loaded, 'create'> = loaded.default ?? loaded;
        const qr = encoder.create(ticketQrSegments(token), TICKET_QR_OPTIONS);
        const size = qr.modules.size + 2 * MARGIN;
        if (current) setDrawn({ size, path: qrPath(qr.modules, MARGIN) });
      })
      .catch(() => {
        if (current) setDrawn('failed');
      });
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <figure className="ticket-qr ticket-card" data-testid="ticket-qr">
      <div className="ticket-qr__box">
        {drawn && drawn !== 'failed' ? (
          <svg
            role="img"
            aria-label={t('ticketPage.qr.label', { code })}
            viewBox={`0 0 ${drawn.size} ${drawn.size}`}
            shapeRendering="crispEdges"
            data-token={token}
          >
            <rect width={drawn.size} height={drawn.size} fill="#fff" />
            <path d={drawn.path} fill="#000" />
          </svg>
        ) : drawn === 'failed' ? (
          <p className="ticket-qr__failed">{t('ticketPage.qr.failed')}</p>
        ) : null}
      </div>
      <figcaption className="hint">{t('ticketPage.qr.caption')}</figcaption>
    </figure>
  );
}
