import { svg, html, type TemplateResult } from "lit";

export interface UsageBar {
  label: string;
  /** Shown under the bar when there is room (defaults to the label). */
  axis?: string;
  value: number;
  note?: string;
}

const WIDTH = 640;
const HEIGHT = 200;
const PAD_BOTTOM = 28;

/** A bar chart in SVG (no inline styles: colours come from the stylesheet's classes). */
export function barChart(bars: readonly UsageBar[], caption: string): TemplateResult {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = bars.length > 0 ? WIDTH / bars.length : WIDTH;
  const barWidth = Math.min(48, Math.max(2, slot * 0.7));
  return html`<figure class="chart">
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label=${caption} preserveAspectRatio="none">
      ${bars.map((b, i) => {
        const h = ((HEIGHT - PAD_BOTTOM) * b.value) / max;
        const x = i * slot + (slot - barWidth) / 2;
        return svg`<g><rect class="bar" x=${x} y=${HEIGHT - PAD_BOTTOM - h} width=${barWidth} height=${h}><title>${b.label}: ${b.value.toLocaleString()}${b.note ? ` (${b.note})` : ""}</title></rect>
          ${bars.length <= 16 ? svg`<text class="axis" x=${x + barWidth / 2} y=${HEIGHT - 8} text-anchor="middle">${(b.axis ?? b.label).slice(0, 14)}</text>` : ""}</g>`;
      })}
    </svg>
    <figcaption>${caption}</figcaption>
  </figure>`;
}
