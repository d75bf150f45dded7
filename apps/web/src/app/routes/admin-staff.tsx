import { SessionGate } from '../../features/account/components/session-gate';
import { StaffScreen } from '../../features/account/components/staff-screen';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/**
 * /organization/staff. The organization area's shell mounts `StaffScreen` inside its own
 * layout (with its session); this route is the screen standing alone until then.
 */
export default function AdminStaffRoute() {
  useDocumentTitle('staff.title');
  return (
    <div className="container page-section">
      <SessionGate loginHref={href(paths.login.build())}>
        {(me) => <StaffScreen currentUserId={me.user.id} />}
      </SessionGate>
    </div>
  );
}

export { StaffScreen };
