// Lets a plain Node process (a test's child) require the TypeScript files under
// test/: each is transpiled on load, without type checking (tsc does that).
const fs = require('fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
    fileName: filename,
  });
  module._compile(outputText, filename);
};
