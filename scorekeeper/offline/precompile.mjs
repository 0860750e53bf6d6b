// Build step (make offline): turn every .py of the phone's zips into the bytecode of Pyodide's own
// Python, so the phone never compiles source at start (the app's import was most of a cold start).
// Usage: node precompile.mjs <pyodide dir> <zip> <prefix inside the phone> [<zip> <prefix> ...]
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [indexDir, ...pairs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(resolve(indexDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(indexDir) + "/" });
const compile = py.runPython(`
import importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_zip(data, prefix):
    source, out = zipfile.ZipFile(io.BytesIO(data.to_bytes())), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            raw = source.read(info)
            if info.filename.endswith(".py"):
                code = compile(raw, prefix + info.filename, "exec", dont_inherit=True)
                raw = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(raw), False))
                info = zipfile.ZipInfo(info.filename + "c", info.date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, raw)
    return out.getvalue()
compile_zip
`);
for (let i = 0; i < pairs.length; i += 2) {
  const [zip, prefix] = [pairs[i], pairs[i + 1]];
  const done = compile(new Uint8Array(readFileSync(zip)), prefix);
  writeFileSync(zip, done.toJs());
  done.destroy();
}
