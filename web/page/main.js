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
  problems: $('problems'), graph: $('graph'), viewpoint: $('viewpoint'), target: $('target'), download: $('download'), losses: $('losses'),
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
// What is drawn is brought to about one unit around the origin (`normalizer`, set by
// `frame`), so that the camera, the grid and every matrix the GPU is given stay the same
// size whatever the file's numbers: a model 3.5e30 units away drawn where it is gave the
// GPU (swiftshader, at least) coordinates it never finished rasterising. `root` turns a
// Z-up file; the file's own space is `root`'s with the normalizer left out.
const normalizer = new THREE.Group();
scene.add(normalizer);
const root = new THREE.Group();
normalizer.add(root);

// `time` is the playback position in seconds: kept here, since the range input rounds its
// value to its step (a frame), which would swallow the small advances of slow playback.
const view = {
  timings: {}, chosenAt: 0, content: null, helper: null, mixer: null, clips: [], clip: -1, action: null, playing: false, rate: 30, time: 0,
  // The glTF node name of each object three made from one (for the tests and the panel),
  // the library's scene graph (from the worker's details) and the box framed.
  nodeNames: new Map(), graph: null, framed: null,
  // The file's camera the view looks through (an index into graph.cameras), or -1: the
  // camera framed on the content, which the mouse turns.
  viewpoint: -1,
};
// What the view looks through when it is a file's camera, placed and shaped from the
// library's graph (the camera's node's world matrix and its projection).
const fileCameras = { perspective: new THREE.PerspectiveCamera(), orthographic: new THREE.OrthographicCamera() };
let lookingThrough = null;
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
      lines.setXYZ(2 * i, ...bounded(o.getWorldPosition(p)));
      lines.setXYZ(2 * i + 1, ...bounded(o.parent.getWorldPosition(p)));
    });
    const axis = new THREE.Vector3();
    const scale = this.content.matrixWorld.getMaxScaleOnAxis();
    const length = scale > 0 && Number.isFinite(scale) ? this.axisLength / scale : 0;
    let at = 2 * this.pairs.length;
    for (const o of this.nodes) {
      o.getWorldPosition(p);
      for (const column of [0, 1, 2]) {
        axis.setFromMatrixColumn(o.matrixWorld, column).multiplyScalar(length).add(p);
        lines.setXYZ(at, ...bounded(p));
        lines.setXYZ(at + 1, ...bounded(axis));
        at += 2;
      }
    }
    lines.needsUpdate = true;
    const points = this.points.geometry.attributes.position;
    this.nodes.forEach((o, i) => points.setXYZ(i, ...bounded(o.getWorldPosition(p))));
    points.needsUpdate = true;
  }
}

/** How far from the framed unit the skeleton is drawn: a node further off (a key of 1e30
 * among keys of 1) is drawn at this distance in its direction, well past the far plane, and
 * a coordinate that is not a number at the origin. */
const DRAWN_LIMIT = 1e4;

/** `v` (a point of the normalised view) as coordinates no further off than DRAWN_LIMIT. */
function bounded(v) {
  const far = Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
  const k = far > DRAWN_LIMIT ? DRAWN_LIMIT / far : 1;
  return [v.x, v.y, v.z].map((c) => (Number.isFinite(c * k) ? c * k : 0));
}

function render() {
  if (view.helper) {
    normalizer.updateMatrixWorld(true);
    view.helper.update();
  }
  renderer.render(scene, lookingThrough ?? camera);
}

function clearView() {
  if (view.mixer) view.mixer.stopAllAction();
  if (view.content) root.remove(view.content);
  if (view.helper) scene.remove(view.helper);
  Object.assign(view, { content: null, helper: null, mixer: null, clips: [], clip: -1, action: null, playing: false, time: 0, nodeNames: new Map(), graph: null, framed: null, viewpoint: -1 });
  lookingThrough = null;
  controls.enabled = true;
  ui.viewpoint.replaceChildren(new Option('framed', '-1'));
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

/** The largest coordinate framed (about f32's largest): beyond it a box is cut. */
const FRAME_LIMIT = 3.4e38;

/** Frames the camera on what is placed: the world-space box of the meshes where their
 * nodes put them (every instance), or of the nodes when there is no mesh, over the whole
 * animation (the box holds them at sampled times of the clip chosen, so that what moves
 * stays in view while it plays). The box is brought to the view's unit (`normalizer`), so
 * the camera, its clipping planes and the grid are the same whatever the file's numbers. */
function frame() {
  normalizer.position.set(0, 0, 0);
  normalizer.scale.setScalar(1);
  normalizer.updateMatrixWorld(true);
  const box = new THREE.Box3();
  const p = new THREE.Vector3();
  const part = new THREE.Box3();
  const meshes = [];
  let vertices = 0;
  view.content?.traverse((o) => {
    if (!o.isMesh) return;
    meshes.push(o);
    vertices += o.geometry.attributes.position?.count ?? 0;
  });
  const precise = vertices <= FRAME_VERTICES;
  const measure = () => {
    normalizer.updateMatrixWorld(true);
    if (meshes.length === 0) {
      for (const node of view.helper?.nodes ?? []) box.expandByPoint(node.getWorldPosition(p));
      return;
    }
    for (const mesh of meshes) {
      if (precise) {
        box.expandByObject(mesh, true);
        continue;
      }
      // The geometry's own box where the mesh stands (skinning moves nothing at rest), and
      // a skinned mesh's bones wherever the animation takes them, without skinning a vertex.
      if (mesh.geometry.boundingBox === null) mesh.geometry.computeBoundingBox();
      box.union(part.copy(mesh.geometry.boundingBox).applyMatrix4(mesh.matrixWorld));
      if (mesh.isSkinnedMesh) for (const bone of mesh.skeleton.bones) box.expandByPoint(bone.getWorldPosition(p));
    }
  };
  measure();
  const duration = view.action ? view.action.getClip().duration : 0;
  if (view.mixer && duration > 0) {
    const shown = view.time;
    const samples = 32;
    for (let i = 0; i <= samples; i += 1) {
      pose((duration * i) / samples);
      measure();
    }
    pose(shown);
  }
  const corners = [box.min, box.max].flatMap((v) => v.toArray());
  if (box.isEmpty() || corners.some(Number.isNaN)) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const limit = new THREE.Vector3().setScalar(FRAME_LIMIT);
  box.min.clamp(limit.clone().negate(), limit);
  box.max.clamp(limit.clone().negate(), limit);
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  // At least a millionth of the distance from the origin: a single-precision vertex is no
  // finer than that, so a small model far off is framed as the point it is drawn as.
  const offset = Math.max(Math.abs(center.x), Math.abs(center.y), Math.abs(center.z));
  const radius = Math.max(size.length() / 2, offset * 1e-6, 1e-9);
  const unit = 1 / radius;
  normalizer.scale.setScalar(unit);
  normalizer.position.copy(center).multiplyScalar(-unit);
  normalizer.updateMatrixWorld(true);
  view.framed = { center: center.toArray(), radius };
  const distance = 1 / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2));
  camera.near = distance / 1000;
  camera.far = distance * 100;
  camera.position.set(0.6, 0.45, 1).normalize().multiplyScalar(distance);
  camera.updateProjectionMatrix();
  controls.minDistance = camera.near;
  controls.maxDistance = camera.far / 2;
  controls.target.set(0, 0, 0);
  controls.update();
  grid.scale.setScalar(1.5);
  grid.position.set(0, (box.min.y - center.y) * unit, 0);
  if (view.helper) view.helper.axisLength = 0.15;
  placeFileCamera();
}

/** Looks through the file's camera `index` (of the library's graph), or through the framed
 * camera (-1). */
function lookThrough(index) {
  view.viewpoint = view.graph?.cameras[index] ? index : -1;
  controls.enabled = view.viewpoint < 0;
  placeFileCamera();
  render();
}

/** Places and shapes the camera looked through as the library's graph has it: where its
 * node is in the world at rest, under the view's Z-up turn and scale (`root`), with its
 * projection's field of view or extent and clipping distances. */
function placeFileCamera() {
  const chosen = view.graph?.cameras[view.viewpoint];
  if (!chosen) {
    lookingThrough = null;
    return;
  }
  const [type, p] = Object.entries(chosen.projection)[0];
  const through = fileCameras[type];
  normalizer.updateMatrixWorld(true);
  const world = new THREE.Matrix4().fromArray(view.graph.nodes[chosen.node].world.map((v) => (Number.isFinite(v) ? v : 0)));
  new THREE.Matrix4().multiplyMatrices(root.matrixWorld, world).decompose(through.position, through.quaternion, new THREE.Vector3());
  const unit = normalizer.scale.x;
  // Distances in the view's unit; a far plane the file leaves open is the framed one.
  through.far = p.zfar ? p.zfar * unit : camera.far;
  through.near = Math.max(p.znear * unit, through.far * 1e-7);
  if (type === 'perspective') {
    through.fov = THREE.MathUtils.radToDeg(p.yfov);
    through.aspect = ui.canvas.width / ui.canvas.height;
  } else {
    Object.assign(through, { left: -p.xmag * unit, right: p.xmag * unit, top: p.ymag * unit, bottom: -p.ymag * unit });
  }
  through.updateProjectionMatrix();
  through.updateMatrixWorld(true);
  lookingThrough = through;
}

/** Runs `f` with the view in the file's own space (the normalizer left out). */
function inFileSpace(f) {
  const { position, scale } = normalizer;
  const saved = [position.clone(), scale.clone()];
  position.set(0, 0, 0);
  scale.setScalar(1);
  normalizer.updateMatrixWorld(true);
  try {
    return f();
  } finally {
    position.copy(saved[0]);
    scale.copy(saved[1]);
    normalizer.updateMatrixWorld(true);
  }
}

/** Poses the content at `seconds` of the clip chosen. The end of the clip is its last pose:
 * three's looping action takes a time equal to the duration round to the start. */
function pose(seconds) {
  const duration = view.action ? view.action.getClip().duration : 0;
  view.mixer.setTime(duration > 0 && seconds >= duration ? duration * (1 - 1e-9) : seconds);
}

function seek(seconds) {
  if (!view.mixer) return;
  view.time = seconds;
  pose(seconds);
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
  const nodes = gltf.parser.json.nodes ?? [];
  for (const [object, at] of gltf.parser.associations) {
    if (object.isObject3D && at.nodes !== undefined) view.nodeNames.set(object, nodes[at.nodes]?.name ?? null);
  }
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
ui.viewpoint.addEventListener('change', () => lookThrough(Number(ui.viewpoint.value)));
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
  /** The view: playback, the clips, the content's box in the world (the file's units),
   * the meshes placed (each with its glTF node's name, world matrix and box), the scene
   * graph the library gave, how the view is framed, and the materials. */
  state() {
    const box = new THREE.Box3();
    const meshes = [];
    inFileSpace(() => {
      root.updateMatrixWorld(true);
      if (view.content) box.expandByObject(view.content, true);
      view.content?.traverse((o) => {
        if (!o.isMesh) return;
        const placed = new THREE.Box3().expandByObject(o, true);
        meshes.push({
          name: o.name,
          node: view.nodeNames.get(o) ?? view.nodeNames.get(o.parent) ?? null,
          skinned: !!o.isSkinnedMesh,
          world: o.matrixWorld.toArray(),
          box: placed.isEmpty() ? null : { min: placed.min.toArray(), max: placed.max.toArray() },
        });
      });
    });
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
      meshes,
      graph: view.graph,
      framed: view.framed,
      camera: { position: camera.position.toArray(), near: camera.near, far: camera.far },
      lookingThrough: lookingThrough && {
        camera: view.viewpoint, type: lookingThrough.type, position: lookingThrough.position.toArray(),
        quaternion: lookingThrough.quaternion.toArray(), fov: lookingThrough.fov ?? null, near: lookingThrough.near, far: lookingThrough.far,
      },
      grid: { scale: grid.scale.x, position: grid.position.toArray() },
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
      showFormats(data.formats);
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
  // The file at fault by name: several may have been chosen together.
  ui.error.textContent = e.file && !e.message.startsWith(`${e.file}:`) ? `${e.file}: ${e.message}` : e.message;
  if (e.file) ui.error.dataset.file = e.file;
  else delete ui.error.dataset.file;
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

/** The scene graph the library gave (what the view's glb holds): its nodes, the meshes each
 * node places (every instance named), cameras and lights. */
function showGraph(graph) {
  const item = (text, data = {}) => {
    const li = Object.assign(document.createElement('li'), { textContent: text });
    Object.assign(li.dataset, data);
    return li;
  };
  if (!graph) {
    ui.graph.replaceChildren();
    return;
  }
  const name = (n) => graph.nodes[n]?.name || `node ${n}`;
  const bones = graph.nodes.filter((n) => n.kind === 'bone').length;
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const summary = `${count(graph.nodes.length, 'node', 'nodes')} (${count(bones, 'bone', 'bones')}), ${count(graph.meshes.length, 'mesh', 'meshes')}`;
  const lines = [item(summary, { kind: 'nodes' })];
  const placed = new Map();
  for (const instance of graph.instances) {
    const key = instance.meshes.map((m) => graph.meshes[m] || `mesh ${m}`).join(', ');
    placed.set(key, [...(placed.get(key) ?? []), name(instance.node)]);
  }
  for (const [meshes, nodes] of placed) {
    const times = nodes.length > 1 ? ` ${nodes.length} times` : '';
    lines.push(item(`${meshes} placed${times} by ${nodes.join(', ')}`, { kind: 'instance', count: String(nodes.length) }));
  }
  for (const camera of graph.cameras) {
    const [type, p] = Object.entries(camera.projection)[0];
    const shape = type === 'perspective'
      ? `${THREE.MathUtils.radToDeg(p.yfov).toFixed(1)}° high`
      : `${(2 * p.xmag).toPrecision(3)} × ${(2 * p.ymag).toPrecision(3)}`;
    lines.push(item(`camera ${camera.name || name(camera.node)} on ${name(camera.node)}: ${type}, ${shape}`, { kind: 'camera' }));
  }
  for (const light of graph.lights) {
    const kind = typeof light.kind === 'string' ? light.kind : Object.keys(light.kind)[0];
    lines.push(item(`light ${light.name || name(light.node)} on ${name(light.node)}: ${kind}`, { kind: 'light' }));
  }
  ui.graph.replaceChildren(...lines);
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
      view.graph = data.graph;
      showGraph(data.graph);
      ui.viewpoint.replaceChildren(new Option('framed', '-1'),
        ...(data.graph?.cameras ?? []).map((c, i) => new Option(`${c.name || data.graph.nodes[c.node]?.name || `camera ${i}`}`, String(i))));
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
  ui.graph.replaceChildren();
  ui.losses.replaceChildren();
  ui.target.replaceChildren();
  ui.download.disabled = true;
  send({ type: 'open', files: [...files], sentAt: performance.timeOrigin + performance.now() });
}

/** The formats the library reads, in the empty state: their names and extensions. */
function showFormats(formats) {
  const list = formats.map((f) => `${f.label} (${f.extensions.map((e) => `.${e}`).join(', ')})`);
  $('formats').textContent = list.join(', ');
  $('formats').dataset.labels = JSON.stringify(formats.map((f) => f.label));
}

/** The sample shipped beside the page (cargo xtask web copies it from testdata/). */
const SAMPLE = 'samples/sample.dmf';

$('sample').addEventListener('click', async () => {
  const name = SAMPLE.split('/').pop();
  try {
    const response = await fetch(new URL(SAMPLE, document.baseURI));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    open([new File([await response.arrayBuffer()], name)]);
  } catch (e) {
    failed({ message: `${name}: the sample could not be fetched (${e.message})`, offset: null });
    setState('error');
  }
});

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
