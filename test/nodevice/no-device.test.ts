// On a machine with a driver, hiding every device (CUDA_VISIBLE_DEVICES=) must
// give a clean CUDA_ERROR_NO_DEVICE: import works, the first call explains.
import { runScript } from '../helpers/subprocess';
import { describeWithDriver } from '../helpers/tiers';

describeWithDriver('with every device hidden', () => {
  test.each(['', '-1', 'GPU-00000000-0000-0000-0000-000000000000'])('CUDA_VISIBLE_DEVICES=%j', (visible) => {
    const r = runScript(`const s = cuda.driverStatus(); let e;
      try { cuda.Device.count(); } catch (x) { e = { type: x.constructor.name, result: x.result, code: x.code, name: x.name, reason: x.reason, message: x.message }; }
      report({ s, e });`, { CUDA_VISIBLE_DEVICES: visible });
    expect(r.status).toBe(0);
    expect(r.report.s).toMatchObject({ available: false, stage: 'init-failed', initResult: { code: 100, name: 'CUDA_ERROR_NO_DEVICE' } });
    expect(r.report.e).toMatchObject({ type: 'DriverUnavailableError', result: 100, code: 'CUDA_ERROR_NO_DEVICE', name: 'DriverUnavailableError', reason: 'init-failed' });
    expect(r.report.e.message).toMatch(/no CUDA-capable device is visible/);
  });
});
