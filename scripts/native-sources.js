#!/usr/bin/env node
// Lists the addon's C++ sources for binding.gyp, as CMakeLists.txt globs them.
'use strict';
const fs = require('fs');
const path = require('path');
const list = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? list(path.join(dir, e.name)) : e.name.endsWith('.cc') ? [path.join(dir, e.name)] : []);
console.log(list('native').sort().join(' '));
