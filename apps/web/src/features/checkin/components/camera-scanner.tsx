import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useI18n } from '../../../i18n/i18n';
import { decodeQr } from '../lib/qr-decode';

const FRAME_EVERY_MS = 200;

/**
 * The back camera in a dialog, read a few times a second until a QR code appears; the
 * camera is released as soon as one is read or the dialog closes.
 */
export function CameraScanner(props: { onRead: (text: string) => void; onClose: () => void }) {
  const { t } = useI18n();
  const titleId = useId();
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const onRead = useRef(props.onRead);
  onRead.current = props.onRead;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const canvas = document.createElement('canvas');
    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    const tick = async () => {
      const element = video.current;
      if (stopped || !element) return;
      try {
        const text = element.readyState >= 2 ? await decodeQr(element, canvas) : null;
        if (text && !stopped) {
          stop();
          onRead.current(text);
          return;
        }
      } catch {
        // A frame that cannot be read is skipped; the next one may be.
      }
      if (!stopped) timer = window.setTimeout(tick, FRAME_EVERY_MS);
    };
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera API');
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
        if (stopped) return stop();
        const element = video.current;
        if (!element) return stop();
        element.srcObject = stream;
        await element.play();
        void tick();
      } catch {
        if (!stopped) setFailed(true);
      }
    })();
    return stop;
  }, []);

  return (
    <Modal labelledBy={titleId} onClose={props.onClose} closeLabel={t('checkin.camera.close')}>
      <h2 id={titleId} className="modal__title">
        {t('checkin.camera.title')}
      </h2>
      {failed ? (
        <p className="alert alert--error" role="alert">
          {t('checkin.camera.failed')}
        </p>
      ) : (
        <>
          <video ref={video} className="checkin-camera__video" muted playsInline />
          <p className="hint">{t('checkin.camera.hint')}</p>
        </>
      )}
      <button type="button" className="btn btn--secondary btn--block" onClick={props.onClose}>
        {t('checkin.camera.close')}
      </button>
    </Modal>
  );
}
