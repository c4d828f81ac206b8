import type { BenchEntry } from './stats.ts';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const format = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en') : n.toPrecision(3));

/**
 * A two-bar SVG for one entry: ours (with its min–max range as a whisker) against the baseline, on
 * one linear scale, labelled with values and the ratio. Plain SVG, no library: it renders on GitHub.
 */
export function barChart(e: BenchEntry): string {
  const width = 640;
  const left = 150;
  const barWidth = width - left - 90;
  const top = Math.max(e.max, e.value, e.baseline) || 1;
  const x = (v: number) => left + (v / top) * barWidth;
  const rows = [
    { label: 'ZeroID', value: e.value, min: e.min, max: e.max, colour: '#1f6feb' },
    { label: 'baseline', value: e.baseline, min: e.baseline, max: e.baseline, colour: '#8b949e' },
  ];
  const bars = rows
    .map((row, i) => {
      const y = 40 + i * 40;
      const whisker =
        row.max > row.min
          ? `<line x1="${x(row.min)}" x2="${x(row.max)}" y1="${y + 12}" y2="${y + 12}" stroke="#0d1117" stroke-width="2"/>`
          : '';
      return `<text x="${left - 8}" y="${y + 17}" text-anchor="end">${row.label}</text>
<rect x="${left}" y="${y}" width="${Math.max(1, x(row.value) - left)}" height="24" fill="${row.colour}"/>${whisker}
<text x="${x(Math.max(row.value, row.max)) + 6}" y="${y + 17}">${format(row.value)} ${escape(e.unit)}</text>`;
    })
    .join('\n');
  const verdict = `×${e.ratio} of baseline (${e.better} is better)`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="130" viewBox="0 0 ${width} 130" font-family="system-ui, sans-serif" font-size="13">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="8" y="22" font-weight="bold">${escape(e.name)}</text><text x="${width - 8}" y="22" text-anchor="end">${escape(verdict)}</text>
${bars}
</svg>
`;
}
