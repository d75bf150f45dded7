import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import type { ClosuresChange } from './add-closure';

export function removeClosure(date: string): Promise<ClosuresChange> {
  return apiFetch<ClosuresChange>(apiPaths.closure(date), { method: 'DELETE' });
}
