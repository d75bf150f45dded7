import type { Role } from '@qless/contract';
import { AppError } from '../../errors.js';
import type { AuthContext } from './auth-guard.js';
import type { SessionUser } from './sessions.js';

/**
 * The role rules in one place (decision 024): who may call a route, which branches an account
 * reaches, who manages whom. Routes ask here instead of comparing roles themselves.
 */

/** Who may call a route. Operators (the platform team) are listed wherever they may act. */
export const ROLES_OPERATOR: readonly Role[] = ['operator'];
/** Runs an organization or one branch of it (decision 024). */
export const ROLES_ADMIN: readonly Role[] = ['org_admin', 'branch_manager', 'operator'];
/** Acts across the branches of an organization: adds branches, copies services to them. */
export const ROLES_ORGANIZATION: readonly Role[] = ['org_admin', 'operator'];
export const ROLES_COUNTER: readonly Role[] = ['staff', 'org_admin', 'branch_manager', 'operator'];
export const ROLES_ANY: readonly Role[] = ROLES_COUNTER;

/**
 * Operators may act on any organization; an organization admin on any branch of theirs; a
 * branch manager and staff on their own branch only.
 */
export function canActOn(auth: AuthContext, organizationId: string): boolean {
  return auth.user.role === 'operator' || auth.user.branch_ids.includes(organizationId);
}

export function assertOrganizationAccess(auth: AuthContext, organizationId: string): void {
  if (!canActOn(auth, organizationId)) {
    throw new AppError(403, 'FORBIDDEN', 'This belongs to another organization.');
  }
}

/**
 * The organization (branch) a route acts on: the caller's acting branch, or another of their
 * branches when named; for an operator the one named (operators have none of their own and
 * must say which).
 */
export function targetOrganization(auth: AuthContext, named?: string | null): string {
  if (auth.user.role === 'operator') {
    if (!named) {
      throw new AppError(400, 'ORGANIZATION_NOT_FOUND', 'Name the organization to act on.');
    }
    return named;
  }
  const own = auth.user.organization_id;
  if (!own) throw new AppError(403, 'FORBIDDEN', 'Your account belongs to no organization.');
  if (named && named !== own) {
    if (auth.user.branch_ids.includes(named)) return named;
    throw new AppError(403, 'FORBIDDEN', 'This belongs to another organization.');
  }
  return own;
}

/**
 * The branches (organizations) a request for figures covers (Insight, the audit log): the one
 * named, if the caller may act on it; none named, every branch the caller may act on — each of
 * an organization admin's branches, a branch manager's own. Operators name the branch.
 */
export function branchesInScope(auth: AuthContext, named?: string | null): string[] {
  if (named || auth.user.role === 'operator') return [targetOrganization(auth, named)];
  return auth.user.branch_ids.length > 0
    ? [...auth.user.branch_ids]
    : [targetOrganization(auth, null)];
}

/** The organization whose tickets an account may verify: null for an operator (any). */
export function ticketScope(user: SessionUser): string | null {
  if (user.role === 'operator') return null;
  if (!user.organization_id) {
    throw new AppError(403, 'FORBIDDEN', 'Your account belongs to no organization.');
  }
  return user.organization_id;
}

/** The branches of an organization an account sees: a branch manager their own; above, all. */
export function visibleBranches<T extends { organization_id: string }>(
  user: SessionUser,
  all: readonly T[],
): T[] {
  return user.role === 'operator'
    ? [...all]
    : all.filter((b) => user.branch_ids.includes(b.organization_id));
}

/** May the account add branches and copy services to them (not a branch manager)? */
export function managesBranches(user: SessionUser): boolean {
  return user.role !== 'branch_manager';
}

/**
 * Who manages whom: an operator anyone; an organization admin the branch managers and staff of
 * their branches; a branch manager their branch's staff. Nobody below an operator makes or
 * locks out a peer.
 */
export function assertMayManage(auth: AuthContext, role: string): void {
  const caller = auth.user.role;
  if (caller === 'operator' || role === 'staff') return;
  if (caller === 'org_admin' && role === 'branch_manager') return;
  throw new AppError(403, 'FORBIDDEN', 'Only an operator may manage admin accounts.');
}

/**
 * Does the account work at the counter only (staff), so that it reaches today's bookings and
 * not other days' (the organization's admins manage those)?
 */
export function countersOnly(user: SessionUser): boolean {
  return user.role === 'staff';
}
