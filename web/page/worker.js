// The page's Web Worker: reads the chosen files, opens them with animbin (WebAssembly) and
// answers the page, so that no file, however large, blocks the page.
import { AnimbinError, formats, openFiles } from 'animbin';

let current = null; // { document, anims, textures, options }

function post(message, transfer = []) {
  self.postMessage(message, transfer);
}

function errorMessage(e, file) {
  return {
    type: 'error',
    message: e && e.message ? e.message : String(e),
    offset: e instanceof AnimbinError || (e && 'offset' in e) ? e.offset ?? null : null,
    format: e && e.format ? e.format : null,
    fatal: !!(e && e.fatal),
    file: file ?? (e && e.file) ?? null,
  };
}

/** Reads the Files chosen with progress: the share of all their bytes read, posted at each
 * hundredth (a post for each of the 64 KiB chunks of a large file kept the page busy). */
async function readAll(files) {
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let done = 0;
  let posted = 0;
  const out = [];
  for (const file of files) {
    const bytes = new Uint8Array(file.size);
    let at = 0;
    const reader = file.stream().getReader();
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      bytes.set(value, at);
      at += value.length;
      done += value.length;
      if (done / total - posted >= 0.01 || done === total) {
        posted = done / total;
        post({ type: 'progress', phase: 'reading', fraction: posted });
      }
    }
    out.push({ name: file.name, bytes: at === bytes.length ? bytes : bytes.subarray(0, at) });
  }
  return out;
}

async function openChosen(files, options, sentAt) {
  if (current) {
    current.document.free();
    current = null;
  }
  // Seconds of each phase, for the page's benchmark (web/bench.mjs).
  const timings = { start: (performance.timeOrigin + performance.now() - sentAt) / 1000 };
  let since = performance.now();
  const lap = (phase) => {
    const now = performance.now();
    timings[phase] = (now - since) / 1000;
    since = now;
  };
  const read = await readAll(files);
  lap('read');
  post({ type: 'progress', phase: 'parsing', fraction: 1 });
  const { document, anims, textures } = openFiles(read);
  current = { document, anims, textures, name: document.name };
  lap('open');
  const infoJson = document.infoJson();
  const problems = document.validate();
  lap('check');
  post({ type: 'progress', phase: 'converting for the view', fraction: 1 });
  let glb = null;
  let lost = [];
  let viewError = null;
  try {
    const converted = document.glb({ ...options, anims, textures });
    glb = converted.bytes;
    lost = converted.lost;
  } catch (e) {
    viewError = e.message;
    if (e.fatal) throw e;
  }
  lap('glb');
  post(
    { type: 'opened', format: document.format, name: document.name, infoJson, problems, glb, lost, viewError,
      anims: anims.map((a) => a.name), textures: textures.map((t) => t.name), timings,
      postedAt: performance.timeOrigin + performance.now() },
    glb ? [glb.buffer] : [],
  );
  current.options = options;
}

/** What the page shows after the first frame: the targets, the animations' rates and
 * notes, and the scene graph (nodes with their world matrices, instances, cameras, lights). The page asks once it has drawn the file, so that this work does not compete with
 * its drawing. */
function details() {
  const { document, anims, options } = current;
  const targets = document.targets();
  let animations = [];
  let graph = null;
  try {
    animations = document.animations({ ...options, anims });
    graph = document.graph({ ...options, anims });
  } catch (e) {
    if (e.fatal) throw e;
  }
  post({ type: 'details', targets, animations, graph });
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'open') {
      await openChosen(data.files, data.options || {}, data.sentAt ?? performance.timeOrigin + performance.now());
    } else if (data.type === 'details') {
      if (current) details();
    } else if (data.type === 'convert') {
      if (!current) throw new AnimbinError('no file is open');
      const options = { ...(data.options || {}), anims: current.anims, textures: current.textures };
      const converted = current.document.convert(data.target, options);
      post({ type: 'converted', target: data.target, bytes: converted.bytes, lost: converted.lost, name: converted.name },
        [converted.bytes.buffer]);
    } else if (data.type === 'view') {
      if (!current) return;
      const converted = current.document.glb({ ...(data.options || {}), anims: current.anims, textures: current.textures });
      post({ type: 'view', glb: converted.bytes, lost: converted.lost }, [converted.bytes.buffer]);
    }
  } catch (e) {
    post({ ...errorMessage(e), request: data.type, target: data.target ?? null });
  }
};
// The formats, for the page's empty state: what it can be given comes from the library.
post({ type: 'ready', formats: formats().map(({ label, extensions }) => ({ label, extensions })) });
