import { PrivacyPage } from '../../features/privacy/components/privacy-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** `/privacy`: the privacy policy the footer links to (decision 031). */
export default function PrivacyRoute() {
  useDocumentTitle('privacy.title');
  return <PrivacyPage contactHref={href(paths.contact.build())} />;
}
