// animbin for browsers and Node: the library compiled to WebAssembly. Every format, target
// and rule comes from the library (`formats()` lists them); this module only translates.
import init, * as wasm from './animbin_wasm.js';

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

/** Loads the WebAssembly module (done once; `ready` resolves when it is loaded). */
async function load() {
  const url = new URL('./animbin_wasm_bg.wasm', import.meta.url);
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    await init({ module_or_path: await readFile(url) });
  } else {
    await init({ module_or_path: url });
  }
}

export const ready = load();
await ready;

/** An error of animbin: a file that does not read (with its format and byte offset), a
 * conversion that cannot be made, or bad options. `fatal` is true after a panic (a bug):
 * the module must then be loaded again (a new worker, a new process). */
export class AnimbinError extends Error {
  constructor(message, { format = null, offset = null, fatal = false, file = null } = {}) {
    super(message);
    this.name = 'AnimbinError';
    this.format = format;
    this.offset = offset;
    this.fatal = fatal;
    /** The name of the file at fault, where `openFiles` was given several. */
    this.file = file;
  }
}

/** Runs `f`, naming the file `name` in an AnimbinError it throws. */
function naming(name, f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof AnimbinError && e.file === null) e.file = name ?? null;
    throw e;
  }
}

let fatal = null;

function call(f) {
  if (fatal) throw new AnimbinError(`animbin stopped after an earlier panic: ${fatal}`, { fatal: true });
  try {
    return f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      fatal = wasm.lastPanic() || e.message;
      throw new AnimbinError(`animbin panicked (a bug): ${fatal}`, { fatal: true });
    }
    if (e && e.name === 'AnimbinError') {
      throw new AnimbinError(e.message, { format: e.format ?? null, offset: e.offset ?? null });
    }
    throw e;
  }
}

function bytesOf(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError('expected the file as a Uint8Array, an ArrayBuffer or a typed array');
}

function namedBytes(list) {
  return (list || []).map(({ name, bytes }) => ({ name: String(name), bytes: bytesOf(bytes) }));
}

function wasmOptions(options = {}) {
  return { ...options, anims: namedBytes(options.anims), textures: namedBytes(options.textures) };
}

/** A file animbin read. */
export class Document {
  #inner;
  /** @internal */
  constructor(inner, name) {
    this.#inner = inner;
    /** The name it was opened with, or null. */
    this.name = name ?? null;
    /** The format's short name ("seanim"). */
    this.format = inner.format;
  }
  /** The summary, exactly the object `animbin info --json` prints. */
  info() {
    return JSON.parse(this.infoJson());
  }
  /** The summary as the JSON text `animbin info --json` prints. */
  infoJson() {
    return call(() => this.#inner.infoJson());
  }
  /** The problems: rules the file breaks (`error`) and suspicious values (`warning`). */
  validate() {
    return call(() => this.#inner.validate());
  }
  /** The whole document as lossless JSON text (`animbin dump`). */
  dump() {
    return call(() => this.#inner.dump());
  }
  /** The target names the document can be written as. */
  targets() {
    return call(() => this.#inner.targets());
  }
  /** Converts to `target`: `{ bytes, lost, name }`, with one line per kind of loss. */
  convert(target, options) {
    const result = call(() => this.#inner.convert(target, wasmOptions(options)));
    return { bytes: result.bytes, lost: result.lost, name: this.outputName(target) };
  }
  /** A glb of the document with the animation files and textures given beside it. */
  glb(options) {
    return this.convert('glb', options);
  }
  /** The animations as the glb holds them, with frame rates and notes. */
  animations(options) {
    return call(() => this.#inner.animations(wasmOptions(options)));
  }
  /** The scene graph the glb holds: `{ nodes, meshes, instances, cameras, lights }`, each
   * node with its world matrix at rest (16 numbers, column by column, as three.js's
   * `Matrix4.fromArray` takes them), computed by the library. */
  graph(options) {
    return JSON.parse(call(() => this.#inner.graph(wasmOptions(options))));
  }
  /** `<stem>.<extension>` of the file written as `target`. */
  outputName(target) {
    return call(() => this.#inner.outputName(target));
  }
  /** Frees the WebAssembly memory the document holds. */
  free() {
    this.#inner.free();
  }
}

/** Reads a file of any supported format. `name` is needed for x8an files (recognised by the
 * name x8an*.bin) and names unnamed animations; `format` forces a format. */
export function open(bytes, { name, format } = {}) {
  const data = bytesOf(bytes);
  return new Document(call(() => wasm.open(data, name ?? undefined, format ?? undefined)), name);
}

/** The summary of a file from its bytes (through the format's zero-copy view). */
export function info(bytes, { name, format } = {}) {
  return JSON.parse(call(() => wasm.infoJsonOf(bytesOf(bytes), name ?? undefined, format ?? undefined)));
}

/** Every format's metadata: names, extensions, what it holds, its targets. */
export function formats() {
  return JSON.parse(wasm.formatsJson());
}

/** The most bytes a texture's type is told by (PNG's signature is 8, JPEG's 3). */
const IMAGE_SIGNATURE = 16;

/** "image/png" or "image/jpeg" for a texture a glb can embed, else null. */
export function imageType(bytes) {
  // Only the first bytes cross into the WebAssembly memory: a file may be hundreds of MiB.
  return wasm.imageType(bytesOf(bytes).subarray(0, IMAGE_SIGNATURE)) ?? null;
}

/** animbin's version. */
export const version = wasm.version();

/** Sorts files chosen together (a model, its animations, its textures): PNG and JPEG files
 * are textures; of the others, the first whose format holds meshes (else bones) is the
 * document, and the rest are its animations. A file whose summary does not read is thrown
 * as its error (the first such), as is the document when it does not read whole; an
 * animation file's other faults are the conversions' errors, which name it. Returns
 * `{ document, anims, textures }`. */
export function openFiles(files) {
  const holds = new Map(formats().map((f) => [f.name, f.holds]));
  const textures = [];
  const opened = [];
  for (const file of files) {
    const bytes = bytesOf(file.bytes);
    if (imageType(bytes)) textures.push({ name: file.name, bytes });
    else opened.push({ name: file.name, bytes });
  }
  if (opened.length === 0) throw new AnimbinError('no file to open (only textures were given)');
  if (opened.length === 1) {
    return { document: naming(opened[0].name, () => open(opened[0].bytes, { name: opened[0].name })), anims: [], textures };
  }
  // Ranked by their summaries (read through each format's view, which builds no document):
  // only the one chosen is read whole here; the animations are read by each conversion.
  const rank = (f) => {
    const summary = naming(f.name, () => info(f.bytes, { name: f.name }));
    const h = holds.get(summary.format) || [];
    const has = (k) => typeof summary[k] === 'number' && summary[k] > 0;
    if (h.includes('meshes') && (has('mesh_count') || has('vertex_count'))) return 0;
    if (h.includes('bones') && has('bone_count') && !has('frame_count')) return 1;
    return 2;
  };
  const ranks = opened.map(rank);
  const primary = ranks.indexOf(Math.min(...ranks));
  const document = naming(opened[primary].name, () => open(opened[primary].bytes, { name: opened[primary].name }));
  const anims = opened.filter((_, i) => i !== primary);
  return { document, anims, textures };
}
