/** "12,000": grouped by hand, since the first Intl number formatter maps ~5 MiB of ICU locale data (docs/architecture.md, "Measured costs"). */
export function withThousandsCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
