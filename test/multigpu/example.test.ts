// examples/multi-gpu.js on two devices, run as a user runs it: it splits a
// vector across the devices, gathers it with a peer copy and checks every value
// and the sum itself; here its report is checked too.
import { runExample } from '../helpers/examples';
import { describeMultiGpu } from '../helpers/tiers';

describeMultiGpu('the multi-GPU example', () => {
  test('node examples/multi-gpu.js', async () => {
    const run = await runExample('multi-gpu.js', { NCCL_NVLS_ENABLE: '0' });
    if (run.status !== 0) console.log(`examples/multi-gpu.js exited ${run.status ?? run.signal}:\n${run.output}`);
    expect(run.status).toBe(0);
    expect(run.output).not.toMatch(/WRONG|needs two GPUs/);
    for (const line of [
      /devices: \[0\] .+, \[1\] .+; peer access (enabled both ways|not possible here)/,
      /computed y = 3x \+ 1 on 2 devices, 8388608 values each/,
      /peer copy of device 1's half to device 0: 32 MiB in [\d.]+ ms \([\d.]+ GB\/s\)/,
      /gathered vector: 16777216 values ok/,
      /sum on device 0: 422212456677376 ok/,
      /^done$/m,
    ]) expect(run.output).toMatch(line);
  }, 180000);
});
