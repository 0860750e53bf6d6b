// Build step (make offline): turn every .py of the phone's zips into the bytecode of Pyodide's own
// Python, so the phone never compiles source at start (the app's import was most of a cold start),
// and write each as a pack the service worker lays out in Pyodide's file system from JavaScript,
// file by file with no decompressing (templates/sw.js, unpack()): Python's unzip of 1,300 files
// was 0.7 s of every start. The pack is stored uncompressed; the server sends it gzipped.
// Pack: a 4-byte little-endian length, that many bytes of JSON [[path, size], ...], the files.
// Usage: node precompile.mjs <pyodide dir> <zip> <prefix inside the phone> <pack> [<zip> <prefix> <pack> ...]
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [indexDir, ...args] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(resolve(indexDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(indexDir) + "/" });
const compile = py.runPython(`
import importlib.util, io, json, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_zip(data, prefix):
    source, index, parts = zipfile.ZipFile(io.BytesIO(data.to_bytes())), [], []
    for info in sorted(source.infolist(), key=lambda info: info.filename):
        name, raw = info.filename, source.read(info)
        if name.endswith(".py"):
            code = compile(raw, prefix + name, "exec", dont_inherit=True)
            raw = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(raw), False))
            name += "c"
        index.append([name, len(raw)])
        parts.append(raw)
    head = json.dumps(index, separators=(",", ":")).encode()
    return len(head).to_bytes(4, "little") + head + b"".join(parts)
compile_zip
`);
for (let i = 0; i < args.length; i += 3) {
  const [zip, prefix, pack] = args.slice(i, i + 3);
  const done = compile(new Uint8Array(readFileSync(zip)), prefix);
  writeFileSync(pack, done.toJs());
  done.destroy();
}
