import { useSession } from '../../features/auth/components/session-provider';
import { BranchesScreen } from '../../features/organization-admin/components/branches-screen';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The organization's branches; the area's shell mounts it for its admins. */
export default function AdminBranchesRoute() {
  useDocumentTitle('branches.title');
  const { state } = useSession();
  const currentId = state.status === 'signed-in' ? (state.organization?.id ?? '') : '';
  return <BranchesScreen currentId={currentId} />;
}
