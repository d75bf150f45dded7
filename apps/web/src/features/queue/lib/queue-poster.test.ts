import { describe, expect, it } from 'vitest';
import { POSTER_TEXT, posterFileName, renderPoster } from './queue-poster';

describe('the poster for the door', () => {
  it('is one A4 page with the name, both languages and the join address', async () => {
    const doc = await renderPoster({
      organizationName: 'Afriland First Bank — Akwa',
      joinUrl: 'https://qless.cm/join/3f7b0c1e-0000-4000-8000-000000000001',
      productName: 'Qless',
    });
    expect(doc.getNumberOfPages()).toBe(1);
    const size = doc.internal.pageSize;
    expect([Math.round(size.getWidth()), Math.round(size.getHeight())]).toEqual([210, 297]);
    // jsPDF leaves its content streams uncompressed; string literals escape ( ) and \.
    const text = doc.output().replace(/\\([()\\])/g, '$1');
    expect(text).toContain('https://qless.cm/join/3f7b0c1e-0000-4000-8000-000000000001');
    expect(text).toContain(POSTER_TEXT.fr.title);
    expect(text).toContain(POSTER_TEXT.en.title);
    expect(text).toContain('Join the queue');
    expect(text).toContain('/Subtype /Image');
  });

  it('names the file after the organization, accents and spaces made safe', () => {
    expect(posterFileName('Hôpital Général de Douala')).toBe(
      'qless-poster-hopital-general-de-douala.pdf',
    );
    expect(posterFileName('***')).toBe('qless-poster-queue.pdf');
  });
});
