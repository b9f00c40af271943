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

  // A line of cumulative values (e.g. win over the last rounds), with its axes: the y axis in
  // fmt's units (its lowest, zero and highest values), the x axis counting the rounds.
  function line(values, title, fmt, axes = { x: "rounds", y: "" }) {
    const w = 480, h = 200, left = 92, right = 14, top = 44, bottom = 36;
    const out = frame(w, h, title);
    if (values.length < 2) { out.append(svg("text", { x: 8, y: 60, text: "not enough rounds yet" })); return out; }
    const lo = Math.min(0, ...values), hi = Math.max(0, ...values), span = hi - lo || 1;
    const x = (k) => left + (k * (w - left - right)) / (values.length - 1);
    const y = (v) => h - bottom - ((v - lo) * (h - top - bottom)) / span;
    const pts = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const last = values[values.length - 1];
    // lowest, zero and highest, leaving out zero where it would overprint another
    const ticks = [lo, hi, 0].filter((v, i, all) => all.indexOf(v) === i
      && (v !== 0 || all.every((o) => o === 0 || Math.abs(y(o) - y(0)) >= 12)));
    out.append(
      svg("line", { class: "axis", x1: left, x2: left, y1: top, y2: h - bottom, stroke: "#93a1b0" }),
      svg("line", { class: "axis", x1: left, x2: w - right, y1: h - bottom, y2: h - bottom, stroke: "#93a1b0" }),
      ...ticks.map((v) => svg("text", { class: "tick y", x: left - 4, y: y(v) + 4, "text-anchor": "end", text: fmt(v) })),
      svg("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), stroke: "#55606b", "stroke-dasharray": "3 3" }),
      svg("text", { class: "tick x", x: left, y: h - bottom + 14, "text-anchor": "middle", text: "1" }),
      svg("text", { class: "tick x", x: w - right, y: h - bottom + 14, "text-anchor": "end", text: String(values.length) }),
      svg("text", { class: "label x", x: (left + w - right) / 2, y: h - 6, "text-anchor": "middle", text: axes.x }),
      svg("text", { class: "label y", x: 8, y: top - 12, text: axes.y }),
      svg("polyline", { fill: "none", stroke: last < 0 ? "#e5484d" : "#4c8dd6", "stroke-width": 2, points: pts }),
      svg("text", { x: w - right, y: y(last) - 6, "text-anchor": "end", text: fmt(last) }));
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
