import { DEFAULT_TIME_ZONE } from '@qless/contract/core';
import { AuditLog } from '../../features/audit/components/audit-log';
import { PlatformConsole } from '../../features/platform/components/platform-console';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AreaStyles } from '../layout/area-styles';
import { href, paths } from '../paths';

export default function PlatformRoute() {
  useDocumentTitle('platform.title');
  return (
    <div className="container page-section">
      <AreaStyles />
      <PlatformConsole
        loginHref={href(paths.login.build())}
        // Operators read days and times in Cameroon's zone, as the server reads the filters.
        audit={
          <div className="console-panel">
            <AuditLog scope="platform" timeZone={DEFAULT_TIME_ZONE} />
          </div>
        }
      />
    </div>
  );
}
