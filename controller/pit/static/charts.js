// SVG charts for the pit dashboard, built as DOM nodes (Croupier.svg): no library, no network.
"use strict";
const Charts = (() => {
  const { svg } = Croupier;
  const frame = (w, h, title) => svg("svg", { class: "chart", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": title },
    svg("text", { x: 8, y: 16, text: title }));

  // Horizontal bars: [{label, value, text, color}], values may be negative.
  function bars(items, title) {
    const w = 480, row = 26, left = 150, h = items.length * row + 30;
    const max = Math.max(1e-9, ...items.map((i) => Math.abs(i.value)));
    const anyNeg = items.some((i) => i.value < 0);
    const zero = anyNeg ? left + (w - left - 60) / 2 : left;
    const scale = (anyNeg ? (w - left - 60) / 2 : w - left - 60) / max;
    const out = frame(w, h, title);
    items.forEach((it, k) => {
      const y = 24 + k * row, len = Math.abs(it.value) * scale, x = it.value < 0 ? zero - len : zero;
      out.append(svg("text", { x: 8, y: y + 15, text: it.label }),
        svg("rect", { x, y: y + 3, width: Math.max(1, len), height: row - 8, fill: it.color || "#4c8dd6" }),
        svg("text", { x: (it.value < 0 ? zero : x + len) + 4, y: y + 15, text: it.text }));
    });
    out.append(svg("line", { x1: zero, x2: zero, y1: 22, y2: h - 4, stroke: "#55606b" }));
    return out;
  }

  // A line of cumulative values (e.g. win over the last rounds).
  function line(values, title, fmt) {
    const w = 480, h = 150, pad = 30;
    const out = frame(w, h, title);
    if (values.length < 2) { out.append(svg("text", { x: 8, y: 60, text: "not enough rounds yet" })); return out; }
    const lo = Math.min(0, ...values), hi = Math.max(0, ...values), span = hi - lo || 1;
    const x = (k) => pad + (k * (w - 2 * pad)) / (values.length - 1);
    const y = (v) => h - 12 - ((v - lo) * (h - 40)) / span;
    const pts = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    out.append(svg("line", { x1: pad, x2: w - pad, y1: y(0), y2: y(0), stroke: "#55606b" }),
      svg("polyline", { fill: "none", stroke: "#3fb37f", "stroke-width": 2, points: pts }),
      svg("text", { x: w - pad, y: y(values[values.length - 1]) - 4, "text-anchor": "end", text: fmt(values[values.length - 1]) }));
    return out;
  }

  // Winning-number frequencies with the fair expectation as a line.
  function frequencies(counts, expected, title) {
    const keys = Object.keys(counts), w = 760, h = 170, left = 24, bw = (w - left - 8) / keys.length;
    const max = Math.max(expected * 1.5, ...keys.map((k) => counts[k]), 1);
    const y = (v) => h - 20 - (v * (h - 45)) / max;
    const out = frame(w, h, title);
    keys.forEach((k, i) => {
      const x = left + i * bw, v = counts[k];
      const colour = k === "0" || k === "00" ? "#3fb37f" : "#4c8dd6";
      out.append(svg("rect", { x: (x + 1).toFixed(1), y: y(v).toFixed(1), width: (bw - 2).toFixed(1),
        height: (h - 20 - y(v)).toFixed(1), fill: colour }, svg("title", { text: `${k}: ${v}` })),
      svg("text", { x: (x + bw / 2).toFixed(1), y: h - 6, "text-anchor": "middle", text: k }));
    });
    out.append(svg("line", { x1: left, x2: w - 8, y1: y(expected), y2: y(expected), stroke: "#e0a526", "stroke-dasharray": "4 3" }));
    return out;
  }

  return { bars, line, frequencies };
})();
