import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './insight-export.js';

describe('CSV cells (RFC 4180, safe in a spreadsheet)', () => {
  it('quotes what would split a row, in any Excel locale, and defuses formulas', () => {
    expect(csvCell('Ngo, "Mama" Ada')).toBe('"Ngo, ""Mama"" Ada"');
    // French Excel splits on ";": a name with one is quoted, so "=cmd" never starts a cell.
    expect(csvCell("x;=cmd|' /C calc'!A0")).toBe(`"x;=cmd|' /C calc'!A0"`);
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 'b;c'])).toBe('a,"b;c"\r\n');
  });
});
