// Loaded (node --require) into a script that `cuda-driver counters` runs: when
// the script's process exits, writes the driver call counters to standard
// error or to the file the command was given. The counters live in the native
// addon, one set per process, so they count the script's calls whichever copy
// of the TypeScript layer it loaded.
'use strict';
const fs = require('fs');
const cuda = require('..');

const mode = process.env.CUDA_DRIVER_COUNTERS_PRINT;
const output = process.env.CUDA_DRIVER_COUNTERS_OUTPUT;
// Not passed on to the script's own child processes.
delete process.env.CUDA_DRIVER_COUNTERS_PRINT;
delete process.env.CUDA_DRIVER_COUNTERS_OUTPUT;
const script = process.argv[1];

process.on('exit', (code) => {
  const counts = cuda.callCounters.read();
  const text = mode === 'json'
    ? JSON.stringify({ script, exitCode: code, counters: counts }, null, 2)
    : `\ndriver calls of ${script} (exit status ${code}):\n${cuda.callCounters.summary()}`;
  if (output) fs.writeFileSync(output, `${text}\n`);
  else process.stderr.write(`${text}\n`);
});
