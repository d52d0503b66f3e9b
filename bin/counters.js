// `cuda-driver counters <script> [args...]`: runs a Node.js script with driver
// call counting on from the start (CUDA_DRIVER_COUNTERS=1) and, through a
// preloaded module, prints the counts when the script's process exits.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { exit } = require('./cli');

function counters(script, args, options, io) {
  const file = path.resolve(script);
  if (!fs.existsSync(file)) {
    io.stderr.write(`cuda-driver counters: ${script} does not exist\n`);
    return Promise.resolve(exit.failed);
  }
  const env = {
    ...io.env,
    CUDA_DRIVER_COUNTERS: '1',
    CUDA_DRIVER_COUNTERS_PRINT: options.json ? 'json' : 'text',
    CUDA_DRIVER_COUNTERS_OUTPUT: options.output ? path.resolve(options.output) : '',
  };
  const preload = path.join(__dirname, 'counters-preload.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, file, ...args], { stdio: 'inherit', env });
    child.on('error', reject);
    // The script's own status; a signal as a shell reports it (128 + its number).
    child.on('close', (code, signal) => resolve(code ?? 128 + (os.constants.signals[signal] ?? 0)));
  });
}

module.exports = { counters };
