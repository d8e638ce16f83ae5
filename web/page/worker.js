// The page's Web Worker: reads the chosen files, opens them with animbin (WebAssembly) and
// answers the page, so that no file, however large, blocks the page.
import { AnimbinError, openFiles } from 'animbin';

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
    file: file ?? null,
  };
}

/** Reads a File with progress: each chunk's share of all the bytes chosen. */
async function readAll(files) {
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let done = 0;
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
      post({ type: 'progress', phase: 'reading', fraction: done / total });
    }
    out.push({ name: file.name, bytes: at === bytes.length ? bytes : bytes.subarray(0, at) });
  }
  return out;
}

async function openChosen(files, options) {
  if (current) {
    current.document.free();
    current = null;
  }
  const read = await readAll(files);
  post({ type: 'progress', phase: 'parsing', fraction: 1 });
  const { document, anims, textures } = openFiles(read);
  current = { document, anims, textures, name: document.name };
  const infoJson = document.infoJson();
  const problems = document.validate();
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
  post(
    { type: 'opened', format: document.format, name: document.name, infoJson, problems, glb, lost, viewError,
      anims: anims.map((a) => a.name), textures: textures.map((t) => t.name) },
    glb ? [glb.buffer] : [],
  );
  // What the page shows after the first frame: the targets and the animations' rates and notes.
  const targets = document.targets();
  let animations = [];
  try {
    animations = document.animations({ ...options, anims });
  } catch (e) {
    if (e.fatal) throw e;
  }
  post({ type: 'details', targets, animations });
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'open') {
      await openChosen(data.files, data.options || {});
    } else if (data.type === 'convert') {
      if (!current) throw new AnimbinError('no file is open');
      const options = { ...(data.options || {}), anims: current.anims, textures: current.textures };
      const converted = current.document.convert(data.target, options);
      post({ type: 'converted', target: data.target, bytes: converted.bytes, lost: converted.lost, name: converted.name,
        download: !!data.download }, [converted.bytes.buffer]);
    } else if (data.type === 'view') {
      if (!current) return;
      const converted = current.document.glb({ ...(data.options || {}), anims: current.anims, textures: current.textures });
      post({ type: 'view', glb: converted.bytes, lost: converted.lost }, [converted.bytes.buffer]);
    }
  } catch (e) {
    post({ ...errorMessage(e), request: data.type, target: data.target ?? null });
  }
};
post({ type: 'ready' });
