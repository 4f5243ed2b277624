/** Left-aligned columns two spaces apart, one line per row; no line ends in spaces. */
export function alignColumns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, col) => (widths[col] = Math.max(widths[col] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, col) => cell.padEnd(widths[col]!))
      .join("  ")
      .trimEnd(),
  );
}
