import { PlatformConsole } from '../../features/platform/components/platform-console';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AreaStyles } from '../layout/area-styles';
import { href, paths } from '../paths';

export default function PlatformRoute() {
  useDocumentTitle('platform.title');
  return (
    <div className="container page-section">
      <AreaStyles />
      <PlatformConsole loginHref={href(paths.login.build())} />
    </div>
  );
}
