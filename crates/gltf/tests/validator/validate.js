// Validates glTF files with the Khronos glTF validator (npm package `gltf-validator`).
//
//   node validate.js --check          exit 0 when the package can be loaded, 3 when not
//   node validate.js FILE...          one JSON line per file:
//                                     {"file", "errors", "warnings", "issues": [...]}
//                                     exit 1 when any file has an error, 2 on a crash
//
// The package is looked up beside this script (`npm install --prefix <this folder>`), then
// in GLTF_VALIDATOR_DIR, then wherever node finds it. External resources (texture files
// named by relative URIs) are loaded from beside the file, as a viewer would; a missing one
// is an IO_ERROR.
"use strict";
const fs = require("fs");
const path = require("path");

function load() {
  const places = [__dirname, process.env.GLTF_VALIDATOR_DIR].filter(Boolean);
  for (const dir of places) {
    try {
      return require(require.resolve("gltf-validator", { paths: [dir] }));
    } catch (_) {}
  }
  try {
    return require("gltf-validator");
  } catch (_) {
    return null;
  }
}

async function main() {
  const args = process.argv.slice(2);
  const validator = load();
  if (args[0] === "--check") {
    process.exit(validator ? 0 : 3);
  }
  if (!validator) {
    console.error("gltf-validator is not installed");
    process.exit(3);
  }
  let failed = false;
  for (const file of args) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 100,
      externalResourceFunction: (uri) =>
        new Promise((resolve, reject) => {
          const full = path.resolve(path.dirname(file), decodeURIComponent(uri));
          fs.readFile(full, (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
        }),
    });
    const issues = report.issues.messages.map((m) => ({
      code: m.code,
      severity: m.severity,
      pointer: m.pointer,
      offset: m.offset,
      message: m.message,
    }));
    console.log(
      JSON.stringify({
        file,
        errors: report.issues.numErrors,
        warnings: report.issues.numWarnings,
        issues,
      }),
    );
    if (report.issues.numErrors > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(String(e));
  process.exit(2);
});
