// The CUDA toolkit's include directories (cooperative_groups.h, the device
// runtime's declarations and the CCCL headers they may use), which NVRTC does
// not bundle.
import * as fs from 'fs';
import * as path from 'path';

export function toolkitIncludes(): string[] {
  const roots = [process.env.CUDA_PATH, process.env.CUDA_HOME, '/usr/local/cuda'].filter((r): r is string => !!r);
  const include = roots.map((r) => path.join(r, 'include')).find((dir) => fs.existsSync(path.join(dir, 'cooperative_groups.h')));
  if (!include) throw new Error(`cooperative_groups.h not found under ${roots.join(', ')}: set CUDA_PATH to the CUDA toolkit`);
  return [include, path.join(include, 'cccl')].filter((dir) => fs.existsSync(dir));
}
