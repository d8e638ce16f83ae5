// The page: file choice, the panel (format, info, problems, downloads) and the 3D view
// (three.js). Every file is read and converted by animbin in a Web Worker.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const $ = (id) => document.getElementById(id);
const body = document.body;
const ui = {
  files: $('files'), status: $('status'), progress: $('progress'), canvas: $('view'), play: $('play'),
  time: $('time'), clock: $('clock'), marks: $('marks'), speed: $('speed'), animation: $('animation'),
  skeleton: $('skeleton'), grid: $('grid'), zup: $('zup'), format: $('format'), error: $('error'), info: $('info'),
  problems: $('problems'), target: $('target'), download: $('download'), losses: $('losses'),
};

// ---- the 3D view -------------------------------------------------------------------------
const renderer = new THREE.WebGLRenderer({ canvas: ui.canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(ui.canvas.width, ui.canvas.height, false);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x30343c);
const camera = new THREE.PerspectiveCamera(45, ui.canvas.width / ui.canvas.height, 0.01, 1000);
camera.position.set(0, 1, 3);
const controls = new OrbitControls(camera, ui.canvas);
scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(3, 5, 4);
scene.add(sun);
const grid = new THREE.GridHelper(2, 10, 0x667080, 0x4a505c);
scene.add(grid);
const root = new THREE.Group();
scene.add(root);

// `time` is the playback position in seconds: kept here, since the range input rounds its
// value to its step (a frame), which would swallow the small advances of slow playback.
const view = { timings: {}, chosenAt: 0, content: null, helper: null, mixer: null, clips: [], clip: -1, action: null, playing: false, rate: 30, time: 0 };
const clock = new THREE.Clock();
// Tests turn the wall clock off and advance playback by hand (see `animbinPage` below).
let manualClock = false;

/** The skeleton: a line from each node (bone or not: an animation file's glb has no skin) to
 * its parent, and a point at each, redrawn from the nodes' world positions. */
class NodeLines extends THREE.Group {
  constructor(content) {
    super();
    this.nodes = [];
    content.traverse((o) => {
      if (o !== content && !o.isMesh && !o.isCamera && !o.isLight) this.nodes.push(o);
    });
    this.pairs = this.nodes.filter((o) => o.parent && o.parent !== content && !o.parent.isMesh);
    const material = { color: 0x7fe0ff, depthTest: false, transparent: true };
    this.lines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial(material));
    this.points = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({ ...material, size: 4, sizeAttenuation: false }));
    // Each node also gets a short line along its own X, Y and Z, so rotations show, as long
    // as the node's scale makes them (relative to the content's own), so scales show too.
    this.content = content;
    this.axisLength = 0.05;
    this.lines.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array((this.pairs.length + 3 * this.nodes.length) * 6), 3));
    this.points.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(this.nodes.length * 3), 3));
    this.lines.frustumCulled = false;
    this.points.frustumCulled = false;
    this.renderOrder = 1;
    this.add(this.lines, this.points);
  }
  update() {
    const p = new THREE.Vector3();
    const lines = this.lines.geometry.attributes.position;
    this.pairs.forEach((o, i) => {
      lines.setXYZ(2 * i, ...o.getWorldPosition(p).toArray());
      lines.setXYZ(2 * i + 1, ...o.parent.getWorldPosition(p).toArray());
    });
    const axis = new THREE.Vector3();
    const length = this.axisLength / Math.max(this.content.matrixWorld.getMaxScaleOnAxis(), 1e-9);
    let at = 2 * this.pairs.length;
    for (const o of this.nodes) {
      o.getWorldPosition(p);
      for (const column of [0, 1, 2]) {
        axis.setFromMatrixColumn(o.matrixWorld, column).multiplyScalar(length).add(p);
        lines.setXYZ(at, p.x, p.y, p.z);
        lines.setXYZ(at + 1, axis.x, axis.y, axis.z);
        at += 2;
      }
    }
    lines.needsUpdate = true;
    const points = this.points.geometry.attributes.position;
    this.nodes.forEach((o, i) => points.setXYZ(i, ...o.getWorldPosition(p).toArray()));
    points.needsUpdate = true;
  }
}

function render() {
  if (view.helper) {
    root.updateMatrixWorld(true);
    view.helper.update();
  }
  renderer.render(scene, camera);
}

function clearView() {
  if (view.mixer) view.mixer.stopAllAction();
  if (view.content) root.remove(view.content);
  if (view.helper) scene.remove(view.helper);
  Object.assign(view, { content: null, helper: null, mixer: null, clips: [], clip: -1, action: null, playing: false, time: 0 });
  ui.play.textContent = 'Play';
  ui.play.disabled = true;
  ui.time.disabled = true;
  ui.time.max = 0;
  ui.time.value = 0;
  ui.animation.replaceChildren();
  ui.marks.replaceChildren();
  render();
}

/** The most vertices whose skinned positions are measured when framing, at each sampled
 * time of an animation; larger meshes are measured by their rest pose's box (their bones are
 * still followed over the whole animation): skinning a million vertices in JavaScript takes
 * longer than the rest of opening the file. */
const FRAME_VERTICES = 50_000;

/** Frames the camera on what is drawn (the skeleton when there is no mesh), over the whole
 * animation: the box holds the meshes and the nodes at sampled times of the clip chosen, so
 * that what moves stays in view while it plays. */
function frame() {
  const box = new THREE.Box3();
  const p = new THREE.Vector3();
  let vertices = 0;
  view.content?.traverse((o) => {
    if (o.isMesh) vertices += o.geometry.attributes.position?.count ?? 0;
  });
  const precise = vertices <= FRAME_VERTICES;
  const measure = (meshes) => {
    root.updateMatrixWorld(true);
    if (view.content && meshes) box.expandByObject(view.content, true);
    if (view.helper) for (const node of view.helper.nodes) box.expandByPoint(node.getWorldPosition(p));
  };
  if (precise) {
    measure(true);
  } else {
    // The rest pose: the geometry's own box where the mesh stands (skinning moves nothing
    // at rest), without skinning a vertex.
    measure(false);
    const rest = new THREE.Box3();
    view.content?.traverse((o) => {
      if (!o.isMesh) return;
      if (o.geometry.boundingBox === null) o.geometry.computeBoundingBox();
      box.union(rest.copy(o.geometry.boundingBox).applyMatrix4(o.matrixWorld));
    });
  }
  const duration = view.action ? view.action.getClip().duration : 0;
  if (view.mixer && duration > 0) {
    const shown = view.time;
    const samples = 32;
    for (let i = 0; i <= samples; i += 1) {
      view.mixer.setTime((duration * i) / samples);
      measure(precise);
    }
    view.mixer.setTime(shown);
    root.updateMatrixWorld(true);
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(size.length() / 2, 1e-3);
  const distance = radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2));
  camera.near = distance / 1000;
  camera.far = distance * 100;
  camera.position.copy(center).add(new THREE.Vector3(0.6, 0.45, 1).normalize().multiplyScalar(distance));
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
  grid.scale.setScalar(radius * 1.5);
  if (view.helper) view.helper.axisLength = Math.max(radius * 0.15, 1e-3);
  grid.position.set(center.x, box.min.y, center.z);
}

function seek(seconds) {
  if (!view.mixer) return;
  view.time = seconds;
  view.mixer.setTime(seconds);
  ui.time.value = seconds;
  showClock();
  render();
}

function showClock() {
  ui.clock.textContent = `${view.time.toFixed(3)} s (frame ${Math.round(view.time * view.rate)})`;
}

/** What the worker's details tell of the clip shown: its frame rate (the timeline's step)
 * and its notes, as marks over the timeline. Nothing is drawn again. */
function showClipDetails() {
  const clip = view.clips[view.clip];
  const details = view.details?.[view.clip];
  view.rate = details?.framerate > 0 ? details.framerate : 30;
  ui.time.step = 1 / view.rate;
  showClock();
  ui.marks.replaceChildren(
    ...(details?.notes || []).map((note) => {
      const mark = document.createElement('span');
      mark.title = `${note.name} (frame ${note.frame})`;
      Object.assign(mark.dataset, { name: note.name, frame: String(note.frame), time: String(note.time) });
      mark.style.left = `${clip.duration > 0 ? (100 * Math.min(note.time, clip.duration)) / clip.duration : 0}%`;
      return mark;
    }),
  );
}

function chooseClip(index) {
  if (!view.mixer) return;
  view.mixer.stopAllAction();
  const clip = view.clips[index];
  view.clip = index;
  view.action = view.mixer.clipAction(clip);
  view.action.play();
  ui.time.max = clip.duration;
  // The most keys of one track: 1 means every track holds one pose, which never moves.
  ui.time.dataset.keys = String(Math.max(0, ...clip.tracks.map((t) => t.times.length)));
  ui.time.disabled = false;
  ui.play.disabled = false;
  showClipDetails();
  seek(0);
}

async function show(glb) {
  clearView();
  // The worker sends the glb in a buffer of its own: three reads it in place.
  const whole = glb.byteOffset === 0 && glb.byteLength === glb.buffer.byteLength;
  const buffer = whole ? glb.buffer : glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
  let start = performance.now();
  const gltf = await new GLTFLoader().parseAsync(buffer, '');
  view.timings.parse = (performance.now() - start) / 1000;
  start = performance.now();
  view.content = gltf.scene;
  // A skinned mesh is drawn wherever its bones take it: three culls it by a sphere of its
  // skinned vertices, computed once (in JavaScript, over every vertex) and stale once it moves.
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) o.frustumCulled = false;
  });
  root.add(gltf.scene);
  view.helper = new NodeLines(gltf.scene);
  view.helper.visible = ui.skeleton.checked && view.helper.nodes.length > 0;
  scene.add(view.helper);
  view.clips = gltf.animations;
  if (view.clips.length) {
    view.mixer = new THREE.AnimationMixer(gltf.scene);
    ui.animation.replaceChildren(...view.clips.map((clip, i) => new Option(clip.name || `animation ${i}`, i)));
    chooseClip(0);
  }
  applyUp();
  frame();
  render();
  view.timings.draw = (performance.now() - start) / 1000;
}

function applyUp() {
  root.rotation.x = ui.zup.checked ? -Math.PI / 2 : 0;
}

/** One step of the view after `dt` seconds of wall clock: playback advances by `dt` times
 * the speed chosen (round the clip's end), else what the camera controls moved is drawn.
 * Nothing else is drawn again: every change draws the view itself, and a large mesh takes
 * long to draw without a GPU. */
function step(dt) {
  if (view.playing && view.mixer && view.action) {
    const duration = view.action.getClip().duration || 0;
    let t = view.time + dt * Number(ui.speed.value);
    if (duration > 0) t %= duration;
    seek(t);
  } else if (controls.update()) {
    render();
  }
}

function tick() {
  requestAnimationFrame(tick);
  const dt = clock.getDelta();
  step(manualClock ? 0 : dt);
}
requestAnimationFrame(tick);

ui.play.addEventListener('click', () => {
  view.playing = !view.playing;
  ui.play.textContent = view.playing ? 'Pause' : 'Play';
});
ui.time.addEventListener('input', () => {
  view.playing = false;
  ui.play.textContent = 'Play';
  seek(Number(ui.time.value));
});
ui.animation.addEventListener('change', () => {
  chooseClip(Number(ui.animation.value));
  frame();
  render();
});
ui.skeleton.addEventListener('change', () => {
  if (view.helper) view.helper.visible = ui.skeleton.checked && view.helper.nodes.length > 0;
  render();
});
ui.grid.addEventListener('change', () => {
  grid.visible = ui.grid.checked;
  render();
});
ui.zup.addEventListener('change', () => {
  applyUp();
  frame();
  render();
});

/** What the page's tests read and drive (no test sees the page's modules otherwise): the
 * view's state, and a clock advanced by hand in place of the wall clock. */
window.animbinPage = {
  /** How many files the page has handed the browser to save, and the last one's name and
   * bytes (base64): what Download gives, whatever the browser then does with it. */
  saved() {
    let binary = '';
    const bytes = saves.bytes ?? new Uint8Array();
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { count: saves.count, name: saves.name, base64: btoa(binary) };
  },
  /** Playback follows `advance` only (true) or the wall clock (false). */
  manualClock(on) {
    manualClock = !!on;
    clock.getDelta();
  },
  /** Seconds of each phase of the last file opened: `start` (from the choice to the worker
   * starting on it), in the worker `read`, `open` (parsed), `check` (info and validate),
   * `glb` (the view's glb built), `reply` (until the page has the glb); here `parse`
   * (three.js reads the glb) and `draw` (the view built, framed and drawn once). */
  timings() {
    return { ...view.timings };
  },
  /** Seconds since the page was given the last files chosen. */
  sinceChosen() {
    return (performance.now() - view.chosenAt) / 1000;
  },
  /** One step of the view as after `seconds` of wall clock; returns the time shown. */
  advance(seconds) {
    step(seconds);
    return view.time;
  },
  /** The view: playback, the clips, the content's box in the world, and its materials. */
  state() {
    root.updateMatrixWorld(true);
    const box = new THREE.Box3();
    if (view.content) box.expandByObject(view.content, true);
    const materials = [];
    view.content?.traverse((o) => {
      if (!o.isMesh) return;
      for (const m of Array.isArray(o.material) ? o.material : [o.material]) {
        const image = m.map?.image;
        materials.push({ mesh: o.name, name: m.name, map: image ? { width: image.width, height: image.height } : null });
      }
    });
    return {
      time: view.time,
      mixerTime: view.mixer ? view.mixer.time : null,
      playing: view.playing,
      speed: Number(ui.speed.value),
      clip: view.clip,
      clips: view.clips.map((c) => ({ name: c.name, duration: c.duration })),
      up: ui.zup.checked ? 'z' : 'y',
      box: box.isEmpty() ? null : { min: box.min.toArray(), max: box.max.toArray() },
      materials,
    };
  },
};

// ---- the worker --------------------------------------------------------------------------
let worker = null;
let converted = null; // { target, bytes, lost, name }
// Requests made before the worker has its WebAssembly: a module worker may drop a message
// that arrives while its module is still being evaluated (the wasm loads in a top-level
// await), so they wait here for its 'ready'.
let waiting = [];

function send(message) {
  if (waiting) waiting.push(message);
  else worker.postMessage(message);
}

function startWorker() {
  waiting = [];
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.type === 'ready') {
      const queued = waiting ?? [];
      waiting = null;
      for (const message of queued) worker.postMessage(message);
      return;
    }
    handle(data);
  };
  worker.onerror = (e) => {
    // The worker itself died (its WebAssembly did not load, or the tab ran out of memory):
    // a file being opened is then in error, never left loading.
    failed({ message: `the worker failed: ${e.message}`, offset: null, fatal: true });
    if (body.dataset.state === 'loading') setState('error');
  };
}

function setState(state) {
  body.dataset.state = state;
}

function failed(e) {
  ui.error.hidden = false;
  ui.error.textContent = e.message;
  if (e.offset === null || e.offset === undefined) delete ui.error.dataset.offset;
  else ui.error.dataset.offset = String(e.offset);
  ui.progress.hidden = true;
  ui.status.textContent = '';
  if (e.fatal) {
    // A panic (or a trap) leaves the WebAssembly instance unusable: start a new worker.
    worker.terminate();
    startWorker();
  }
}

function listLosses(lines) {
  ui.losses.replaceChildren(...lines.map((line) => Object.assign(document.createElement('li'), { textContent: line })));
}

// What the page last handed the browser to save, for tests (`animbinPage.saved`).
let saves = { count: 0, name: null, bytes: null };

function saveFile(name, bytes) {
  saves = { count: saves.count + 1, name, bytes };
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  // Chromium starts the download after the click returns: an anchor removed at once
  // sometimes takes its download with it (seen in about one page run in three).
  setTimeout(() => a.remove(), 1000);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function handle(data) {
  switch (data.type) {
    case 'progress':
      ui.progress.hidden = false;
      ui.progress.value = data.fraction;
      ui.status.textContent = data.phase;
      break;
    case 'opened': {
      performance.mark('animbin-opened');
      view.timings = { ...data.timings, reply: (performance.timeOrigin + performance.now() - data.postedAt) / 1000 };
      ui.format.textContent = `${data.name ?? ''}: ${data.format}`;
      ui.info.dataset.json = data.infoJson;
      ui.info.textContent = JSON.stringify(JSON.parse(data.infoJson), null, 2);
      ui.problems.replaceChildren(
        ...data.problems.map((p) => {
          const li = document.createElement('li');
          li.dataset.severity = p.severity;
          if (p.offset !== null) li.dataset.offset = String(p.offset);
          li.textContent = `${p.severity}: ${p.text}`;
          return li;
        }),
      );
      if (!data.problems.length) ui.problems.append(Object.assign(document.createElement('li'), { textContent: 'none' }));
      ui.status.textContent = 'drawing';
      try {
        if (data.glb) await show(data.glb);
        else clearView();
      } catch (e) {
        data.viewError = String(e);
      }
      listLosses(data.viewError ? [`view: ${data.viewError}`] : data.lost.map((l) => `view: ${l}`));
      ui.progress.hidden = true;
      ui.status.textContent = '';
      performance.mark('animbin-first-frame');
      setState('ready');
      send({ type: 'details' });
      break;
    }
    case 'details':
      // Details asked for a file before the one now opening are not this file's.
      if (body.dataset.state !== 'ready') break;
      ui.target.replaceChildren(...data.targets.map((t) => new Option(t, t)));
      ui.target.disabled = false;
      view.details = data.animations;
      if (view.clips.length) showClipDetails();
      body.dataset.details = 'ready';
      convertForDownload();
      break;
    case 'converted':
      // Only the conversion to the target chosen now; an earlier choice's arrives late.
      if (data.target !== ui.target.value || body.dataset.state !== 'ready') break;
      converted = data;
      listLosses(data.lost);
      ui.status.textContent = '';
      ui.download.disabled = false;
      break;
    case 'error':
      if (data.request === 'open') {
        clearView();
        setState('error');
      } else if (data.request === 'convert') {
        if (data.target === ui.target.value) {
          listLosses([data.message]);
          ui.status.textContent = '';
        }
        if (data.fatal) failed(data);
        break;
      }
      failed(data);
      break;
    default:
      break;
  }
}

function open(files) {
  if (!files.length) return;
  view.chosenAt = performance.now();
  setState('loading');
  converted = null;
  ui.error.hidden = true;
  ui.error.textContent = '';
  delete ui.error.dataset.offset;
  delete ui.info.dataset.json;
  delete body.dataset.details;
  ui.info.textContent = '';
  ui.problems.replaceChildren();
  ui.losses.replaceChildren();
  ui.target.replaceChildren();
  ui.download.disabled = true;
  send({ type: 'open', files: [...files], sentAt: performance.timeOrigin + performance.now() });
}

ui.files.addEventListener('change', () => open(ui.files.files));
body.addEventListener('dragover', (e) => e.preventDefault());
body.addEventListener('drop', (e) => {
  e.preventDefault();
  open(e.dataTransfer.files);
});
/** Converts to the chosen target, so that what it cannot hold shows before anything is
 * downloaded, and so that Download saves bytes already made: a browser lets a page save a
 * file in answer to a click, but may block a save that comes later, when a worker replies
 * (Chromium does, after a few). Download is enabled once the bytes are there. */
function convertForDownload() {
  converted = null;
  ui.download.disabled = true;
  ui.status.textContent = 'converting';
  send({ type: 'convert', target: ui.target.value });
}

ui.target.addEventListener('change', convertForDownload);
ui.download.addEventListener('click', () => {
  if (converted && converted.target === ui.target.value) saveFile(converted.name, converted.bytes);
});

startWorker();
