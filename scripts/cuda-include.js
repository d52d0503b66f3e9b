#!/usr/bin/env node
// Prints CUDA's include directory for binding.gyp (CUDA_PATH, else /usr/local/cuda),
// or says what to install when cuda.h is not there.
'use strict';
const fs = require('fs');
const path = require('path');
const dir = path.join(process.env.CUDA_PATH || '/usr/local/cuda', 'include');
if (!fs.existsSync(path.join(dir, 'cuda.h'))) {
  console.error(`cuda-driver: cuda.h not found in ${dir}. Install the CUDA toolkit headers (13.0 or newer) or set CUDA_PATH.`);
  process.exit(1);
}
console.log(dir);
