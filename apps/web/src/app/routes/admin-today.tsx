import { TodayScreen } from '../../features/checkin/components/today-screen';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** The counter's Today screen (check-in); the organization area's shell mounts it. */
export default function AdminTodayRoute() {
  useDocumentTitle('checkin.title');
  return <TodayScreen loginHref={href(paths.login.build())} />;
}
