// The suite's figures as one SVG chart, written by hand (no dependency):
// first every time that has a C figure, as a multiple of C for JavaScript,
// cuda.bindings and cuda.core (log scale, C = 1, targets marked); then the
// service benchmark's requests per second at each concurrency; then copy
// bandwidth against copy size for each kind of host memory and between devices,
// two panels a row.
'use strict';
const { ratioToC } = require('./common');

const colors = { js: '#2563eb', c: '#4b5563', bindings: '#d97706', core: '#059669', torch: '#9333ea' };
const names = { js: 'JavaScript', c: 'C', bindings: 'cuda.bindings', core: 'cuda.core', torch: 'torch.distributed' };
const directions = { h2d: 'host to device', d2h: 'device to host', '0to1': 'device 0 to 1', '1to0': 'device 1 to 0', allreduce: 'all-reduce, bus bandwidth' };

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x, y, content, attrs = '') => `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attrs}>${escape(content)}</text>`;
const line = (x1, y1, x2, y2, attrs) => `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" ${attrs}/>`;

function legend(x, y, keys) {
  return keys.map((key, i) => {
    const at = x + i * 150;
    return `<rect x="${at}" y="${y - 9}" width="12" height="12" fill="${colors[key]}"/>${text(at + 18, y + 1, names[key])}`;
  }).join('');
}

// Times relative to C, one group of bars per measure.
function ratioPanel(rows, top, width) {
  const left = 330, right = width - 30, barHeight = 7, series = ['js', 'bindings', 'core', 'torch'];
  const groups = rows.map((row) => ({
    row,
    bars: series.map((key) => ({ key, value: key === 'js' ? ratioToC(row) : row[key] !== undefined ? row[key] / row.c : undefined }))
      .filter((b) => b.value !== undefined && b.value > 0),
  }));
  const all = groups.flatMap((g) => g.bars.map((b) => b.value));
  const lo = Math.min(0.5, ...all), hi = Math.max(2, ...all) * 1.15;
  const x = (v) => left + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (right - left);
  const out = [text(20, top + 20, 'Host time as a multiple of C (log scale; C = 1; lower is better)', 'font-weight="bold" font-size="15"'),
    legend(left, top + 44, series)];
  let y = top + 64;
  const gridTop = y;
  for (const { row, bars } of groups) {
    const height = Math.max(1, bars.length) * (barHeight + 2) + 10;
    out.push(text(left - 8, y + height / 2, row.label, 'text-anchor="end" font-size="11"'));
    bars.forEach((b, i) => {
      const by = y + 4 + i * (barHeight + 2);
      out.push(`<rect x="${x(lo).toFixed(1)}" y="${by}" width="${(x(b.value) - x(lo)).toFixed(1)}" height="${barHeight}" fill="${colors[b.key]}">` +
        `<title>${escape(`${names[b.key]}: ${b.value.toFixed(3)}x C`)}</title></rect>`);
      out.push(text(x(b.value) + 4, by + barHeight - 0.5, `${b.value.toFixed(2)}x`, 'font-size="9" fill="#374151"'));
    });
    const target = row.target?.maxRatio;
    if (target !== undefined) out.push(line(x(target), y + 2, x(target), y + height - 4, 'stroke="#dc2626" stroke-width="2"'));
    y += height;
  }
  for (let p = Math.ceil(Math.log10(lo)); p <= Math.floor(Math.log10(hi)); p++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** p;
      if (v < lo || v > hi) continue;
      out.push(line(x(v), gridTop, x(v), y, `stroke="${v === 1 ? '#111827' : '#e5e7eb'}" stroke-width="${v === 1 ? 1.5 : 1}"`));
      out.push(text(x(v), y + 14, `${v}x`, 'text-anchor="middle" font-size="10"'));
    }
  }
  out.push(text(left, y + 32, 'red marks: targets (JS/C); hover a bar for its value', 'font-size="10" fill="#6b7280"'));
  return { svg: out.join('\n'), height: y + 44 - top };
}

// Bandwidth against size, one chart per section: its first direction solid, its second dashed.
function bandwidthPanel(section, top, left, width) {
  const height = 230, plotTop = top + 40, plotBottom = top + height - 30, right = left + width - 20, plotLeft = left + 50;
  const sizes = [...new Set(section.rows.map((r) => r.bytes))].sort((a, b) => a - b);
  const [solid, dashed] = [...new Set(section.rows.map((r) => r.direction))];
  const series = [];
  for (const key of ['js', 'c', 'bindings', 'torch']) {
    for (const direction of [solid, dashed]) {
      const points = sizes.map((bytes) => {
        const row = section.rows.find((r) => r.bytes === bytes && r.direction === direction);
        return row?.[key] === undefined ? undefined : { bytes, value: row[key] };
      }).filter(Boolean);
      if (points.length) series.push({ key, direction, points });
    }
  }
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.value))) * 1.1;
  const x = (bytes) => plotLeft + ((Math.log2(bytes) - Math.log2(sizes[0])) / Math.max(1, Math.log2(sizes.at(-1)) - Math.log2(sizes[0]))) * (right - plotLeft);
  const y = (v) => plotBottom - (v / max) * (plotBottom - plotTop);
  const out = [text(left, top + 20, section.title.replace('Copy bandwidth, ', 'Copy bandwidth (GB/s), '), 'font-weight="bold" font-size="13"')];
  out.push(line(plotLeft, plotBottom, right, plotBottom, 'stroke="#111827"'), line(plotLeft, plotTop, plotLeft, plotBottom, 'stroke="#111827"'));
  for (let i = 0; i <= 4; i++) {
    const v = (max / 4) * i;
    out.push(line(plotLeft, y(v), right, y(v), 'stroke="#e5e7eb"'), text(plotLeft - 6, y(v) + 3, v.toFixed(0), 'text-anchor="end" font-size="9"'));
  }
  for (const bytes of sizes) {
    const label = bytes >= 2 ** 20 ? `${bytes / 2 ** 20}M` : `${bytes / 1024}K`;
    out.push(text(x(bytes), plotBottom + 13, label, 'text-anchor="middle" font-size="9"'));
  }
  for (const s of series) {
    const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${x(p.bytes).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${colors[s.key]}" stroke-width="2"${s.direction === dashed ? ' stroke-dasharray="5,3"' : ''}>` +
      `<title>${escape(`${names[s.key]} ${directions[s.direction] ?? s.direction}`)}</title></path>`);
  }
  const caption = `solid: ${directions[solid] ?? solid}${dashed ? `; dashed: ${directions[dashed] ?? dashed}` : ''}`;
  out.push(text(plotLeft, top + height - 4, caption, 'font-size="9" fill="#6b7280"'));
  return out.join('\n');
}

// Requests per second, one group of bars (JavaScript, C, cuda.core) per concurrency.
function throughputPanel(rows, top, width) {
  const left = 330, right = width - 90, barHeight = 9, series = ['js', 'c', 'core'];
  const max = Math.max(1, ...rows.flatMap((row) => series.map((key) => row[key] ?? 0)));
  const x = (v) => left + (v / max) * (right - left);
  const out = [text(20, top + 20, 'Service: requests per second (higher is better)', 'font-weight="bold" font-size="15"'),
    legend(left, top + 44, series)];
  let y = top + 64;
  for (const row of rows) {
    const bars = series.filter((key) => row[key] !== undefined);
    const height = Math.max(1, bars.length) * (barHeight + 2) + 10;
    out.push(text(left - 8, y + height / 2, `${row.concurrency} in flight`, 'text-anchor="end" font-size="11"'));
    bars.forEach((key, i) => {
      const by = y + 4 + i * (barHeight + 2);
      out.push(`<rect x="${left}" y="${by}" width="${(x(row[key]) - left).toFixed(1)}" height="${barHeight}" fill="${colors[key]}">` +
        `<title>${escape(`${names[key]}: ${row[key].toFixed(0)} requests/s`)}</title></rect>`);
      out.push(text(x(row[key]) + 4, by + barHeight - 1, row[key].toFixed(0), 'font-size="9" fill="#374151"'));
    });
    y += height;
  }
  return { svg: out.join('\n'), height: y + 10 - top };
}

/** The SVG document for the sections of a run and its header lines. */
function renderChart(sections, header) {
  const width = 1100;
  const timed = sections.flatMap((s) => s.rows).filter((r) => r.better === 'lower' && r.c !== undefined && r.js !== undefined);
  const parts = [];
  let y = 10;
  for (const h of header) {
    parts.push(text(20, y + 14, h, 'font-size="12" fill="#374151"'));
    y += 16;
  }
  const ratios = ratioPanel(timed, y + 4, width);
  parts.push(ratios.svg);
  y += 4 + ratios.height;
  const throughput = sections.flatMap((s) => s.rows).filter((r) => r.unit === 'req/s');
  if (throughput.length) {
    const panel = throughputPanel(throughput, y, width);
    parts.push(panel.svg);
    y += panel.height;
  }
  const bandwidth = sections.filter((s) => s.rows.some((r) => r.unit === 'GB/s'));
  bandwidth.forEach((section, i) => parts.push(bandwidthPanel(section, y + Math.floor(i / 2) * 240, 20 + (i % 2) * (width / 2), width / 2 - 20)));
  if (bandwidth.length) {
    y += 240 * Math.ceil(bandwidth.length / 2);
    parts.push(legend(70, y, ['js', 'c', 'bindings']));
    y += 20;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.ceil(y + 10)}" viewBox="0 0 ${width} ${Math.ceil(y + 10)}" ` +
    `font-family="Helvetica, Arial, sans-serif" font-size="12">\n<rect width="100%" height="100%" fill="#ffffff"/>\n${parts.join('\n')}\n</svg>\n`;
}

module.exports = { renderChart };
