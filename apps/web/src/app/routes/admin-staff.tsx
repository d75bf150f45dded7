import { StaffScreen } from '../../features/account/components/staff-screen';
import { useSession } from '../../features/auth/components/session-provider';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Staff management (admins); the organization area's shell mounts it inside its session. */
export default function AdminStaffRoute() {
  useDocumentTitle('staff.title');
  const { state } = useSession();
  return (
    <StaffScreen
      {...(state.status === 'signed-in'
        ? {
            currentUserId: state.user.id,
            canManageAdmins: state.user.role === 'operator',
            // An organization admin invites and manages the managers of its branches.
            canManageBranchManagers: state.user.role !== 'branch_manager',
          }
        : {})}
    />
  );
}
