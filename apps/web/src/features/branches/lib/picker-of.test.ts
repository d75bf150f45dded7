import { describe, expect, it } from 'vitest';
import { pickerOf } from './picker-of';

describe('pickerOf', () => {
  const head = 'a0000000-0000-4000-8000-000000000001';
  const branch = 'a0000000-0000-4000-8000-000000000002';

  it('leaves a one-place organization alone', () => {
    expect(pickerOf({ organization_id: head, parent_id: null, branch_name: null })).toBeNull();
    // Another organization's picker in the navigation state says nothing about this one.
    expect(
      pickerOf({ organization_id: head, parent_id: null, branch_name: null }, branch),
    ).toBeNull();
  });

  it("links a branch to its head's picker, and a named head to its own", () => {
    expect(pickerOf({ organization_id: branch, parent_id: head, branch_name: 'Akwa' })).toBe(head);
    expect(pickerOf({ organization_id: head, parent_id: null, branch_name: 'Banengo' })).toBe(head);
  });

  it('links a head with no branch name when its picker led there', () => {
    expect(pickerOf({ organization_id: head, parent_id: null, branch_name: null }, head)).toBe(
      head,
    );
  });
});
