import type { Role } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { AuthContext } from './auth-guard.js';
import {
  assertMayManage,
  assertOrganizationAccess,
  branchesInScope,
  canActOn,
  countersOnly,
  managesBranches,
  targetOrganization,
  ticketScope,
  visibleBranches,
} from './roles.js';
import type { SessionUser } from './sessions.js';

// An organization with two branches (HEAD and NORTH) and another organization (OTHER).
const HEAD = 'head';
const NORTH = 'north';
const OTHER = 'other';

function user(role: Role, organizationId: string | null, branchIds: string[]): SessionUser {
  return {
    id: `${role}-id`,
    email: `${role}@example.test`,
    name: role,
    role,
    organization_id: organizationId,
    home_organization_id: organizationId,
    branch_ids: branchIds,
  };
}

const operator = user('operator', null, []);
const admin = user('org_admin', HEAD, [HEAD, NORTH]);
const manager = user('branch_manager', NORTH, [NORTH]);
const staff = user('staff', NORTH, [NORTH]);
const orphan = user('staff', null, []);

const auth = (u: SessionUser): AuthContext => ({
  user: u,
  tokenHash: 'hash',
  via: 'cookie',
  expiresAt: new Date('2026-11-28T12:00:00Z'),
});

/** The error a call throws, as status and code (null when it does not throw). */
function refusal(call: () => unknown): { status: number; code: string } | null {
  try {
    call();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, code: error.code };
  }
}

const FORBIDDEN = { status: 403, code: 'FORBIDDEN' };

describe('the role rules', () => {
  it('lets an operator act on any organization, others on their branches only', () => {
    expect([HEAD, NORTH, OTHER].map((o) => canActOn(auth(operator), o))).toEqual([
      true,
      true,
      true,
    ]);
    expect([HEAD, NORTH, OTHER].map((o) => canActOn(auth(admin), o))).toEqual([true, true, false]);
    expect([HEAD, NORTH, OTHER].map((o) => canActOn(auth(manager), o))).toEqual([
      false,
      true,
      false,
    ]);
    expect(refusal(() => assertOrganizationAccess(auth(staff), HEAD))).toEqual(FORBIDDEN);
    expect(refusal(() => assertOrganizationAccess(auth(staff), NORTH))).toBeNull();
  });

  it('targets the acting branch, another named branch of the caller, or the one an operator names', () => {
    expect(targetOrganization(auth(admin))).toBe(HEAD);
    expect(targetOrganization(auth(admin), NORTH)).toBe(NORTH);
    expect(refusal(() => targetOrganization(auth(admin), OTHER))).toEqual(FORBIDDEN);
    expect(refusal(() => targetOrganization(auth(manager), HEAD))).toEqual(FORBIDDEN);
    expect(targetOrganization(auth(operator), OTHER)).toBe(OTHER);
    expect(refusal(() => targetOrganization(auth(operator)))).toEqual({
      status: 400,
      code: 'ORGANIZATION_NOT_FOUND',
    });
    expect(refusal(() => targetOrganization(auth(orphan)))).toEqual(FORBIDDEN);
  });

  it('scopes figures to every branch of the caller, or the one named', () => {
    expect(branchesInScope(auth(admin))).toEqual([HEAD, NORTH]);
    expect(branchesInScope(auth(admin), NORTH)).toEqual([NORTH]);
    expect(branchesInScope(auth(manager))).toEqual([NORTH]);
    expect(refusal(() => branchesInScope(auth(manager), HEAD))).toEqual(FORBIDDEN);
    expect(branchesInScope(auth(operator), OTHER)).toEqual([OTHER]);
    expect(refusal(() => branchesInScope(auth(operator)))?.status).toBe(400);
  });

  it("verifies tickets of the caller's branch; an operator's of any", () => {
    expect(ticketScope(operator)).toBeNull();
    expect(ticketScope(staff)).toBe(NORTH);
    expect(refusal(() => ticketScope(orphan))).toEqual(FORBIDDEN);
  });

  it('shows a branch manager their branch, an admin and an operator every branch', () => {
    const branches = [{ organization_id: HEAD }, { organization_id: NORTH }];
    expect(visibleBranches(operator, branches)).toEqual(branches);
    expect(visibleBranches(admin, branches)).toEqual(branches);
    expect(visibleBranches(manager, branches)).toEqual([{ organization_id: NORTH }]);
    expect(managesBranches(admin)).toBe(true);
    expect(managesBranches(manager)).toBe(false);
  });

  it('lets each role manage only the roles below it', () => {
    const may = (caller: SessionUser, role: Role) =>
      refusal(() => assertMayManage(auth(caller), role)) === null;
    const roles: Role[] = ['staff', 'branch_manager', 'org_admin', 'operator'];
    expect(roles.map((r) => may(operator, r))).toEqual([true, true, true, true]);
    expect(roles.map((r) => may(admin, r))).toEqual([true, true, false, false]);
    expect(roles.map((r) => may(manager, r))).toEqual([true, false, false, false]);
  });

  it('keeps staff to the counter', () => {
    expect([staff, manager, admin, operator].map(countersOnly)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
