/** Left-aligned columns two spaces apart, one line per row; no line ends in spaces. `width` measures a cell (its length by default). */
export function alignColumns(rows: string[][], width: (cell: string) => number = (cell) => cell.length): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, col) => (widths[col] = Math.max(widths[col] ?? 0, width(cell))));
  return rows.map((row) =>
    row
      .map((cell, col) => cell + " ".repeat(widths[col]! - width(cell)))
      .join("  ")
      .trimEnd(),
  );
}

/**
 * The columns a terminal gives `text`, near enough for tables holding emoji: a character drawn as
 * an emoji by default (or made one by U+FE0F) takes two, a joiner or variation selector none,
 * anything else one.
 */
export function terminalWidth(text: string): number {
  const chars = [...text];
  let width = 0;
  chars.forEach((char, i) => {
    if (char === "\u200d" || /[\ufe00-\ufe0f]/u.test(char)) return;
    width += /\p{Emoji_Presentation}/u.test(char) || chars[i + 1] === "\ufe0f" ? 2 : 1;
  });
  return width;
}
