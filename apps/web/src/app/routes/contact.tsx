import { ContactForm } from '../../features/contact/components/contact-form';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

export default function ContactRoute() {
  useDocumentTitle('contact.title');
  return (
    <div className="container page-section page-section--narrow">
      <ContactForm loginHref={href(paths.login.build())} />
    </div>
  );
}
