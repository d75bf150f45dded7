import type { Organization } from '@qless/contract';

/**
 * The organization whose branch picker a services page links to, or null when the place is
 * the organization's only one. Told by the organization itself, with no request:
 * a branch names its head; a head with a branch name has siblings. A head with no branch
 * name is one of several only when the picker says so (`pickedFrom`, its navigation state).
 */
export function pickerOf(
  org: Pick<Organization, 'organization_id' | 'parent_id' | 'branch_name'>,
  pickedFrom: string | null = null,
): string | null {
  if (org.parent_id) return org.parent_id;
  if (org.branch_name !== null || pickedFrom === org.organization_id) return org.organization_id;
  return null;
}
