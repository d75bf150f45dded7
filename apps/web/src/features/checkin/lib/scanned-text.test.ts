import { ticketPageUrl } from '@qless/contract/core';
import { describe, expect, it } from 'vitest';
import { scannedText } from './scanned-text';

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

describe('scannedText', () => {
  it('reads the token out of a ticket page link (the QR of new tickets)', () => {
    const link = ticketPageUrl('https://qless.cm', 'QL-7K4M-2QAB-XC9D', { t: TOKEN });
    expect(scannedText(link)).toEqual({ token: TOKEN });
    expect(scannedText(` ${link}\n`)).toEqual({ token: TOKEN });
  });
  it('takes a bare token as the token (tickets printed before links)', () => {
    expect(scannedText(TOKEN)).toEqual({ token: TOKEN });
  });
  it('reads a typed code, and the code of a link that carries no token', () => {
    expect(scannedText('ql 7k4m 2qab xc9d')).toEqual({ code: 'QL-7K4M-2QAB-XC9D' });
    const keyLink = ticketPageUrl('https://qless.cm', 'QL-7K4M-2QAB-XC9D', { k: 'secret-key' });
    expect(scannedText(keyLink)).toEqual({ code: 'QL-7K4M-2QAB-XC9D' });
  });
  it('never reads the access key of a link as a token', () => {
    const keyLink = ticketPageUrl('https://qless.cm', 'QL-7K4M-2QAB-XC9D', { k: TOKEN });
    expect(scannedText(keyLink)).not.toEqual({ token: TOKEN });
  });
});
