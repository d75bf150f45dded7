/**
 * An SVG path drawing the dark modules of a QR matrix, one unit per module, offset by a
 * quiet zone of `margin` units: one element instead of thousands of rectangles.
 */
export function qrPath(
  matrix: { size: number; get(row: number, col: number): number },
  margin: number,
): string {
  const parts: string[] = [];
  for (let row = 0; row < matrix.size; row += 1) {
    let col = 0;
    while (col < matrix.size) {
      if (!matrix.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < matrix.size && matrix.get(row, col)) col += 1;
      parts.push(`M${start + margin} ${row + margin}h${col - start}v1h${start - col}z`);
    }
  }
  return parts.join('');
}
