// Inline SVG charts for the pit dashboard: no library, no network.
"use strict";
const Charts = (() => {
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

  // Horizontal bars: [{label, value, text, color}], values may be negative.
  function bars(items, title) {
    const w = 480, row = 26, left = 150, h = items.length * row + 30;
    const max = Math.max(1e-9, ...items.map((i) => Math.abs(i.value)));
    const anyNeg = items.some((i) => i.value < 0);
    const zero = anyNeg ? left + (w - left - 60) / 2 : left;
    const scale = (anyNeg ? (w - left - 60) / 2 : w - left - 60) / max;
    let out = `<svg class="chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(title)}"><text x="8" y="16">${esc(title)}</text>`;
    items.forEach((it, k) => {
      const y = 24 + k * row, len = Math.abs(it.value) * scale, x = it.value < 0 ? zero - len : zero;
      out += `<text x="8" y="${y + 15}">${esc(it.label)}</text>`;
      out += `<rect x="${x}" y="${y + 3}" width="${Math.max(1, len)}" height="${row - 8}" fill="${it.color || "#4c8dd6"}"></rect>`;
      out += `<text x="${(it.value < 0 ? zero : x + len) + 4}" y="${y + 15}">${esc(it.text)}</text>`;
    });
    return out + `<line x1="${zero}" x2="${zero}" y1="22" y2="${h - 4}" stroke="#55606b"></line></svg>`;
  }

  // A line of cumulative values (e.g. win over the last rounds).
  function line(values, title, fmt) {
    const w = 480, h = 150, pad = 30;
    let out = `<svg class="chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(title)}"><text x="8" y="16">${esc(title)}</text>`;
    if (values.length < 2) return out + `<text x="8" y="60">not enough rounds yet</text></svg>`;
    const lo = Math.min(0, ...values), hi = Math.max(0, ...values), span = hi - lo || 1;
    const x = (k) => pad + (k * (w - 2 * pad)) / (values.length - 1);
    const y = (v) => h - 12 - ((v - lo) * (h - 40)) / span;
    const pts = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    out += `<line x1="${pad}" x2="${w - pad}" y1="${y(0)}" y2="${y(0)}" stroke="#55606b"></line>`;
    out += `<polyline fill="none" stroke="#3fb37f" stroke-width="2" points="${pts}"></polyline>`;
    out += `<text x="${w - pad}" y="${y(values[values.length - 1]) - 4}" text-anchor="end">${esc(fmt(values[values.length - 1]))}</text>`;
    return out + `</svg>`;
  }

  // Winning-number frequencies with the fair expectation as a line.
  function frequencies(counts, expected, title) {
    const keys = Object.keys(counts), w = 760, h = 170, left = 24, bw = (w - left - 8) / keys.length;
    const max = Math.max(expected * 1.5, ...keys.map((k) => counts[k]), 1);
    const y = (v) => h - 20 - (v * (h - 45)) / max;
    let out = `<svg class="chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(title)}"><text x="8" y="16">${esc(title)}</text>`;
    keys.forEach((k, i) => {
      const x = left + i * bw, v = counts[k];
      const colour = k === "0" || k === "00" ? "#3fb37f" : "#4c8dd6";
      out += `<rect x="${(x + 1).toFixed(1)}" y="${y(v).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${(h - 20 - y(v)).toFixed(1)}" fill="${colour}"><title>${esc(k)}: ${v}</title></rect>`;
      out += `<text x="${(x + bw / 2).toFixed(1)}" y="${h - 6}" text-anchor="middle">${esc(k)}</text>`;
    });
    out += `<line x1="${left}" x2="${w - 8}" y1="${y(expected)}" y2="${y(expected)}" stroke="#e0a526" stroke-dasharray="4 3"></line>`;
    return out + `</svg>`;
  }

  return { bars, line, frequencies, esc };
})();
