// Per-query bar chart in plain SVG: one group per query, one bar per run (e.g. nDCG@10 before vs after
// reranking), values on a 0–1 axis (every trec_eval measure the demo charts lies in [0, 1]).
const SVG = "http://www.w3.org/2000/svg";
export const RUN_COLOURS = ["#8c96a8", "#2f6fde", "#d9822b", "#3d9970"];

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * @param values run name → qid → value
 * @param measure the measure's name (axis title)
 */
export function perQueryChart(values: Record<string, Record<string, number>>, measure: string): SVGSVGElement {
  const runs = Object.keys(values);
  const qids = [...new Set(runs.flatMap((r) => Object.keys(values[r])))].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const barW = 18;
  const groupW = runs.length * barW + 16;
  const left = 40;
  const top = 24;
  const plotH = 160;
  const width = Math.max(320, left + qids.length * groupW + 20);
  const height = top + plotH + 40;
  const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${measure} per query` });
  svg.append(el("text", { x: left, y: 14, class: "chart-title" }, `${measure} per query`));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const y = top + plotH * (1 - tick);
    svg.append(el("line", { x1: left, x2: width - 10, y1: y, y2: y, class: "grid" }));
    svg.append(el("text", { x: left - 6, y: y + 4, class: "tick", "text-anchor": "end" }, tick.toFixed(2)));
  }
  qids.forEach((qid, g) => {
    const x0 = left + 8 + g * groupW;
    runs.forEach((run, r) => {
      const v = values[run][qid];
      if (v === undefined) return;
      const h = plotH * Math.max(0, Math.min(1, v));
      const bar = el("rect", { x: x0 + r * barW, y: top + plotH - h, width: barW - 3, height: Math.max(h, 0.5), fill: RUN_COLOURS[r % RUN_COLOURS.length] });
      bar.dataset.qid = qid;
      bar.dataset.run = run;
      bar.dataset.value = String(v);
      bar.append(el("title", {}, `${run}, query ${qid}: ${v.toFixed(4)}`));
      svg.append(bar);
    });
    svg.append(el("text", { x: x0 + (runs.length * barW) / 2, y: top + plotH + 16, class: "tick", "text-anchor": "middle" }, qid));
  });
  runs.forEach((run, r) => {
    const x = left + r * 120;
    svg.append(el("rect", { x, y: height - 14, width: 10, height: 10, fill: RUN_COLOURS[r % RUN_COLOURS.length] }));
    svg.append(el("text", { x: x + 14, y: height - 5, class: "tick" }, run));
  });
  return svg;
}
