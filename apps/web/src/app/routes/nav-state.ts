import type { Organization, Service } from '@qless/contract';
import { isRecord, readHistoryState } from '../../lib/history-state';

/** Spec 2: the organizations page hands the chosen organization and the full list on. */
export interface ServicesNavState {
  organization: Organization;
  organizations: Organization[];
  /** False when `organizations` is one page of a search, not every organization. */
  complete?: boolean;
}

/** Spec 2: the services page hands the organization and the service on. */
export interface SlotsNavState {
  organization: Organization;
  service: Service;
}

const isOrganization = (v: unknown): v is Organization =>
  isRecord(v) && typeof v.organization_id === 'string' && typeof v.name === 'string';

export const readServicesState = () =>
  readHistoryState(
    (v): v is ServicesNavState =>
      isRecord(v) &&
      isOrganization(v.organization) &&
      Array.isArray(v.organizations) &&
      v.organizations.every(isOrganization),
  );

export const readSlotsState = () =>
  readHistoryState(
    (v): v is SlotsNavState =>
      isRecord(v) &&
      isOrganization(v.organization) &&
      isRecord(v.service) &&
      typeof v.service.service_id === 'string' &&
      typeof v.service.service_name === 'string',
  );

/** The branch picker tells the services page the branch was one of several. */
export interface BranchNavState {
  /** The organization's head: the picker's address. */
  branchOf: string;
}

export const readBranchState = () =>
  readHistoryState((v): v is BranchNavState => isRecord(v) && typeof v.branchOf === 'string');

/** What the Login page is told on arrival (e.g. after a password reset). */
export interface LoginNavState {
  notice: 'passwordChanged';
}

export const readLoginState = () =>
  readHistoryState((v): v is LoginNavState => isRecord(v) && v.notice === 'passwordChanged');
