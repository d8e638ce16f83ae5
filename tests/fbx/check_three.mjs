// three.js's FBXLoader, in Node, on animbin's FBX: an independent reader of the web.
//
// Every sample of testdata/ (and testdata/graph/) is converted by animbin to FBX and to glb;
// FBXLoader parses the FBX, and what it builds must hold what the glb holds:
// - as many mesh objects and triangles (every node that places a mesh, each primitive);
// - every skin joint of the glb as a Bone of the same name;
// - the same animations by name, each clip as long as the glb's animation (to 1e-3 s).
//
//   node tests/fbx/check_three.mjs --animbin target/debug/animbin --testdata testdata
//
// Prints one `FAIL` line per mismatch and `N passed, M failed`; exits 1 on any failure.
// Files animbin refuses to convert to glb (nothing to write) are skipped by name.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";

import { FBXLoader } from "three/examples/jsm/loaders/FBXLoader.js";
import { LoadingManager } from "three";

const { values: args } = parseArgs({
  options: { animbin: { type: "string" }, testdata: { type: "string", default: "testdata" } },
});
if (!args.animbin) {
  console.error("usage: node check_three.mjs --animbin PATH [--testdata DIR]");
  process.exit(2);
}

// FBXLoader loads textures through the DOM's Image and sizes cameras by the window, which
// Node has not: an image that never loads and a window of 1920 x 1080 stand in (what is
// compared here is shape, bones and clips).
const manager = new LoadingManager();
manager.setURLModifier(() => "data:,");
globalThis.self ??= globalThis;
globalThis.window ??= { innerWidth: 1920, innerHeight: 1080 };
globalThis.document ??= {
  createElementNS: () => ({ style: {}, addEventListener() {}, removeEventListener() {} }),
};

function samples(dir) {
  const suffixes = [".seanim", ".semodel", ".cast", ".dmf", ".animx", ".animj", ".glb"];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...samples(path));
    else if (suffixes.some((s) => name.endsWith(s)) || name.startsWith("x8an")) out.push(path);
  }
  return out;
}

function glbFacts(path) {
  const data = readFileSync(path);
  const length = data.readUInt32LE(12);
  const gltf = JSON.parse(data.subarray(20, 20 + length).toString("utf8"));
  const nodes = gltf.nodes ?? [];
  let meshes = 0;
  let lines = 0;
  let triangles = 0;
  for (const node of nodes) {
    if (node.mesh === undefined) continue;
    for (const primitive of gltf.meshes[node.mesh].primitives) {
      // Lines or points (a Cast file's hair): animbin's FBX has no hair, and says so.
      if ((primitive.mode ?? 4) !== 4) {
        lines += 1;
        continue;
      }
      meshes += 1;
      const count = primitive.indices !== undefined
        ? gltf.accessors[primitive.indices].count
        : gltf.accessors[primitive.attributes.POSITION].count;
      triangles += Math.floor(count / 3);
    }
  }
  const joints = new Set();
  for (const skin of gltf.skins ?? []) for (const j of skin.joints) joints.add(nodes[j].name ?? "");
  const animations = new Map();
  for (const animation of gltf.animations ?? []) {
    let end = 0;
    for (const sampler of animation.samplers) end = Math.max(end, gltf.accessors[sampler.input].max?.[0] ?? 0);
    animations.set(animation.name ?? "", end);
  }
  return { meshes, lines, triangles, joints, animations };
}

function fbxFacts(path) {
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const group = new FBXLoader(manager).parse(buffer, "");
  let meshes = 0;
  let triangles = 0;
  const bones = new Set();
  group.traverse((object) => {
    if (object.isMesh) {
      meshes += 1;
      const geometry = object.geometry;
      const corners = geometry.index ? geometry.index.count : geometry.attributes.position.count;
      triangles += Math.floor(corners / 3);
    }
    if (object.isBone) bones.add(object.name);
  });
  const animations = new Map(group.animations.map((clip) => [clip.name, clip.duration]));
  return { meshes, triangles, bones, animations };
}

let passed = 0;
let failed = 0;
function check(ok, what) {
  if (ok) passed += 1;
  else {
    failed += 1;
    console.log(`FAIL ${what}`);
  }
}

const tmp = mkdtempSync(join(tmpdir(), "animbin-three-"));
try {
  samples(args.testdata).forEach((sample, k) => {
    const name = relative(args.testdata, sample);
    const fbx = join(tmp, `${k}.fbx`);
    const glb = join(tmp, `${k}.glb`);
    const made = [fbx, glb].map((out) => spawnSync(args.animbin, ["convert", sample, out], { encoding: "utf8" }));
    if (made[1].status !== 0 && made[1].stderr.includes("nothing was written")) {
      console.log(`skipped ${name}: nothing to write`);
      return;
    }
    if (made[0].status !== 0 && made[0].stderr.includes("nothing was written")) {
      // Only what animbin's FBX has no place for (a Cast file's references to other files):
      // FBX refuses it, and says so.
      const only = glbFacts(glb);
      if (!only.meshes && !only.joints.size && !only.animations.size) {
        check(true, "");
        console.log(`skipped ${name}: FBX holds nothing of it`);
        return;
      }
    }
    if (made.some((m) => m.status !== 0)) {
      check(false, `${name}: animbin convert failed: ${made[0].stderr.trim()} ${made[1].stderr.trim()}`);
      return;
    }
    const a = glbFacts(glb);
    check(!a.lines || made[0].stderr.includes("has no hair"), `${name}: hair in the glb, and the FBX conversion does not say it has none`);
    let b;
    try {
      b = fbxFacts(fbx);
    } catch (error) {
      check(false, `${name}: FBXLoader fails: ${error.stack ?? error}`);
      return;
    }
    check(a.meshes === b.meshes, `${name}: ${b.meshes} meshes, the glb ${a.meshes}`);
    check(a.triangles === b.triangles, `${name}: ${b.triangles} triangles, the glb ${a.triangles}`);
    const missing = [...a.joints].filter((j) => !b.bones.has(j));
    check(missing.length === 0, `${name}: skin joints that are no Bone: ${missing}`);
    const names = (m) => [...m.keys()].sort().join(", ");
    check(names(a.animations) === names(b.animations), `${name}: clips [${names(b.animations)}], the glb [${names(a.animations)}]`);
    for (const [clip, duration] of a.animations) {
      if (!b.animations.has(clip)) continue;
      const length = b.animations.get(clip);
      check(Math.abs(length - duration) <= 1e-3, `${name}: clip ${JSON.stringify(clip)} lasts ${length} s, the glb ${duration} s`);
    }
    const clips = [...b.animations].map(([clip, d]) => `${clip} ${d.toFixed(3)} s`).join(", ");
    console.log(`checked ${name}: ${b.meshes} meshes, ${b.triangles} triangles, ${b.bones.size} bones, clips [${clips}]`);
  });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
