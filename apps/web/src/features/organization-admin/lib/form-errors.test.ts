import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { formErrors } from './form-errors';

const FIELDS = {
  service_name: 'serviceForm.error.name',
  duration: null,
  capacity: null,
} as const;

describe('formErrors', () => {
  it('puts each refused field under its own name, in the form words first', () => {
    const error = new ApiError(400, 'INVALID_NAME', 'x', [
      { path: 'service_name', code: 'INVALID_NAME', message: 'x' },
      { path: 'duration', code: 'INVALID_DURATION', message: 'x' },
    ]);
    expect(formErrors(error, FIELDS)).toEqual({
      fields: { service_name: 'serviceForm.error.name', duration: 'error.INVALID_DURATION' },
      other: [],
    });
  });
  it('keeps the first problem of a field and reads nested paths by their first segment', () => {
    const error = new ApiError(400, 'INVALID_OPEN_DAYS', 'x', [
      { path: 'open_days.2', code: 'INVALID_OPEN_DAYS', message: 'x' },
      { path: 'open_days.3', code: 'VALIDATION_FAILED', message: 'x' },
    ]);
    expect(formErrors(error, { open_days: null }).fields).toEqual({
      open_days: 'error.INVALID_OPEN_DAYS',
    });
  });
  it('lists problems of fields the form does not have apart, once', () => {
    const error = new ApiError(400, 'INVALID_ID', 'x', [
      { path: 'organization_id', code: 'INVALID_ID', message: 'x' },
      { path: 'other', code: 'INVALID_DATE', message: 'x' },
    ]);
    expect(formErrors(error, FIELDS)).toEqual({
      fields: {},
      other: ['error.VALIDATION_FAILED'],
    });
  });
  it('shows a refusal without details in the words of its code', () => {
    expect(formErrors(new ApiError(403, 'FORBIDDEN', 'x'), FIELDS).other).toEqual([
      'error.FORBIDDEN',
    ]);
    expect(formErrors(new ApiError(0, null, 'x'), FIELDS).other).toEqual(['error.network']);
    expect(formErrors(new ApiError(500, 'INTERNAL_ERROR', 'x'), FIELDS).other).toEqual([
      'error.generic',
    ]);
  });
  it('puts hours that end before they start under the end time', () => {
    const error = new ApiError(400, 'INVALID_HOURS', 'x');
    expect(formErrors(error, { start_time: null, end_time: null }).fields).toEqual({
      end_time: 'error.INVALID_HOURS',
    });
  });
});
