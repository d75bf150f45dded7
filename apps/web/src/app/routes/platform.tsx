import { PlatformConsole } from '../../features/platform/components/platform-console';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

export default function PlatformRoute() {
  useDocumentTitle('platform.title');
  return (
    <div className="container page-section">
      <PlatformConsole loginHref={href(paths.login.build())} />
    </div>
  );
}
