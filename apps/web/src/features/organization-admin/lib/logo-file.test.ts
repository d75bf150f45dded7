import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES, logoFileProblem } from './logo-file';

describe('logoFileProblem', () => {
  it('accepts PNG, JPEG and WebP up to 2 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      expect(logoFileProblem({ type, size: LOGO_MAX_BYTES })).toBeNull();
    }
  });
  it('names a file of another type', () => {
    for (const type of ['image/gif', 'image/svg+xml', 'application/pdf', '']) {
      expect(logoFileProblem({ type, size: 10 })).toBe('error.INVALID_IMAGE');
    }
  });
  it('names a file over 2 MB', () => {
    expect(logoFileProblem({ type: 'image/png', size: LOGO_MAX_BYTES + 1 })).toBe(
      'error.PAYLOAD_TOO_LARGE',
    );
  });
});
