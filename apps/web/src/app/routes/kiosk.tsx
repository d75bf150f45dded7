import { useParams } from 'wouter';
import { KioskPage } from '../../features/kiosk/components/kiosk-page';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/kiosk/{token}`: the touch screen at the door of a kiosk link (adds visitors only). */
export default function KioskRoute() {
  const { token = '' } = useParams<{ token: string }>();
  useDocumentTitle('kiosk.title');
  return <KioskPage key={token} token={token} />;
}
