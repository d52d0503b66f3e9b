const cuda = require('..');
async function trial(label, wait) {
  const s = cuda.Stream.create();
  const dev = cuda.DeviceBuffer.alloc(1 << 30);
  for (let i = 0; i < 100; i++) cuda.fill(dev, i & 0xff, { stream: s });
  let ticks = 0, last = process.hrtime.bigint(), gap = 0;
  const timer = setInterval(() => { const t = process.hrtime.bigint(); gap = Math.max(gap, Number(t - last) / 1e6); last = t; ticks++; }, 1);
  const t0 = process.hrtime.bigint();
  const marks = [];
  await wait(s, marks);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  clearInterval(timer);
  console.log(label, JSON.stringify({ ms: ms.toFixed(1), ticks, gap: gap.toFixed(1), marks }));
  s.synchronizeSync(); dev.dispose(); s.dispose();
}
(async () => {
  await trial('baseline sleep', () => new Promise((r) => setTimeout(r, 30)));
  await trial('stream.synchronize', (s) => s.synchronize());
  await trial('stream.synchronize (2nd)', (s) => s.synchronize());
  await trial('event.synchronize', (s) => { const e = cuda.Event.create(); e.record(s); return e.synchronize(); });
  await trial('query polling', async (s, marks) => { const t0 = Date.now(); while (!s.query()) { await new Promise((r) => setImmediate(r)); } marks.push(Date.now() - t0); });
  await trial('sync in immediate', (s, marks) => new Promise((r) => { const t0 = process.hrtime.bigint(); s.synchronize().then(() => { marks.push(Number(process.hrtime.bigint() - t0) / 1e6); r(); }); setImmediate(() => marks.push('imm ' + Number(process.hrtime.bigint() - t0) / 1e6)); setTimeout(() => marks.push('t5 ' + Number(process.hrtime.bigint() - t0) / 1e6), 5); }));
})();
