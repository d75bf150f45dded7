/**
 * The branch this tab of the organization area acts on (decision 024). Kept per tab
 * (sessionStorage), so a regional manager can have Akwa in one tab and Bastos in another and
 * each request says which: the API client sends it as `x-qless-branch`. Absent: the
 * account's own branch.
 */
const KEY = 'qless.branch';
export const BRANCH_HEADER = 'x-qless-branch';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage blocked (privacy settings): the account's own branch, always.
    return null;
  }
}

export function actingBranch(): string | null {
  try {
    return storage()?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

/** Acts on `id` from now on in this tab; null goes back to the account's own branch. */
export function setActingBranch(id: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (id === null) s.removeItem(KEY);
    else s.setItem(KEY, id);
  } catch {
    // Nothing kept: the next request acts on the account's own branch.
  }
}

/** The header the API client adds to each request of this tab, if any. */
export function actingBranchHeaders(): Record<string, string> {
  const id = actingBranch();
  return id ? { [BRANCH_HEADER]: id } : {};
}
