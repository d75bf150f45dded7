import { zonedNow } from '@qless/contract/core';
import { useSession } from '../../features/auth/components/session-provider';
import { InsightScreen } from '../../features/insight/components/insight-screen';
import { WithOrganizationData } from '../../features/organization-admin/components/organization-data';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * Insight (admins): its own chunk within the area. "Today" is the organization's,
 * in its time zone; the branch select is fed from the session's branches.
 */
export default function AdminInsightRoute() {
  useDocumentTitle('insight.title');
  const { state } = useSession();
  const branches =
    state.status === 'signed-in'
      ? state.branches.map((b) => ({ id: b.id, name: b.branch_name ?? b.name }))
      : [];
  return (
    <WithOrganizationData>
      {(data) => (
        <InsightScreen
          today={zonedNow(data.organizationData.time_zone, new Date()).date}
          branches={branches}
        />
      )}
    </WithOrganizationData>
  );
}
