#!/usr/bin/env node
// The cuda-driver command: `npx cuda-driver <command>`; see bin/cli.js.
'use strict';
const { main } = require('./cli');

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`cuda-driver: ${error && error.stack ? error.stack : error}\n`);
    process.exit(1);
  },
);
