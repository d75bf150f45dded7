import type {
  BookingActionResponse,
  CheckinResponse,
  CheckinSyncItem,
  CheckinSyncResponse,
  TodayResponse,
} from '@qless/contract';
import { apiPaths } from '../../../lib/api-paths';
import { type Answer, request } from './request';

export function getToday(signal?: AbortSignal): Promise<Answer<TodayResponse>> {
  return request<TodayResponse>(apiPaths.organizationToday(), signal ? { signal } : {});
}

export function postCheckin(input: { token: string } | { code: string }) {
  return request<CheckinResponse>(apiPaths.checkins(), { method: 'POST', body: input });
}

export function postSync(items: CheckinSyncItem[]) {
  return request<CheckinSyncResponse>(apiPaths.checkinsSync(), {
    method: 'POST',
    body: { items },
  });
}

export function postBookingAction(bookingId: string, action: 'no_show' | 'cancel') {
  const path =
    action === 'no_show' ? apiPaths.bookingNoShow(bookingId) : apiPaths.bookingCancel(bookingId);
  return request<BookingActionResponse>(path, { method: 'POST' });
}
