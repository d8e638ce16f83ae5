// The npm package under Node (node --test): every testdata file through the same API the
// page uses, against the native command.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { animbin as animbinCommand, built, haveBuild, nativeConvert, nativeInfo, root, samples, testdata } from './common.mjs';

const ok = haveBuild();
const animbin = ok ? await import(join(built, 'pkg/index.js')) : null;

test('formats come from the library table', { skip: !ok }, () => {
  const formats = animbin.formats();
  assert.ok(formats.length >= 7);
  for (const f of formats) assert.ok(f.name && f.label && Array.isArray(f.targets), JSON.stringify(f));
});

for (const name of samples) {
  const file = join(testdata, name);
  test(`${name}: info is animbin info --json`, { skip: !ok }, () => {
    const expected = nativeInfo(file);
    const doc = animbin.open(readFileSync(file), { name });
    assert.deepEqual(doc.info(), expected);
    assert.deepEqual(animbin.info(readFileSync(file), { name }), expected);
    assert.equal(doc.format, expected.format);
    doc.free();
  });
  test(`${name}: validate, dump and targets`, { skip: !ok }, () => {
    const doc = animbin.open(readFileSync(file), { name });
    for (const p of doc.validate()) assert.ok(['error', 'warning'].includes(p.severity), JSON.stringify(p));
    const dump = JSON.parse(doc.dump());
    assert.equal(dump.format, doc.format);
    const targets = doc.targets();
    assert.ok(targets.includes('json'));
    // A dump opens again as the same document.
    const again = animbin.open(new TextEncoder().encode(doc.dump()), { name: `${name}.json` });
    // A dump reads into AnimX's binary form whatever form it was dumped from (the library's
    // AnimXDocument::form), so an AnimJ file's dump summarises as AnimX.
    const expected = doc.info();
    if (expected.form === 'animj') expected.form = 'animx';
    assert.deepEqual(again.info(), expected);
    again.free();
    doc.free();
  });
  for (const [target, extension] of [['glb', 'glb'], ['cast', 'cast']]) {
    test(`${name}: ${target} is byte-equal to animbin convert`, { skip: !ok }, () => {
      const expected = nativeConvert(file, target, extension);
      const doc = animbin.open(readFileSync(file), { name });
      let converted = null;
      try {
        converted = doc.convert(target);
      } catch (e) {
        assert.equal(e.name, 'AnimbinError');
        assert.equal(expected, null, `the command converts ${name} to ${target}, the package says ${e.message}`);
      }
      if (converted) {
        assert.ok(expected, `the command refuses ${name} to ${target}`);
        assert.ok(Buffer.from(converted.bytes).equals(expected), `${name} -> ${target} differs`);
        assert.equal(converted.name, `${name.replace(/\.[^.]*$/, '')}.${extension}`);
      }
      doc.free();
    });
  }
}

test('a truncated file is an AnimbinError with its offset, and the next file opens', { skip: !ok }, () => {
  const bytes = readFileSync(join(testdata, 'sample.seanim'));
  assert.throws(() => animbin.open(bytes.subarray(0, 40), { name: 'cut.seanim' }), (e) => {
    assert.equal(e.name, 'AnimbinError');
    assert.equal(typeof e.offset, 'number');
    assert.equal(e.format, 'seanim');
    assert.match(e.message, /byte/);
    return true;
  });
  assert.throws(() => animbin.open(new Uint8Array(0)), (e) => e.offset === 0);
  assert.throws(() => animbin.open(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), (e) => e.offset === 0);
  assert.equal(animbin.open(bytes, { name: 'sample.seanim' }).format, 'seanim');
});

test('an x8an file is read by its name, or with the format given', { skip: !ok }, () => {
  const bytes = readFileSync(join(testdata, 'x8an00.bin'));
  assert.equal(animbin.open(bytes, { name: 'x8an00.bin' }).format, 'sf3');
  assert.equal(animbin.open(bytes, { format: 'sf3' }).format, 'sf3');
  assert.throws(() => animbin.open(bytes, { name: 'other.bin' }), /x8an/);
});

test('a model with an animation file joins it into one glb, as animbin convert --anim', { skip: !ok }, () => {
  const model = readFileSync(join(testdata, 'sample.semodel'));
  const anim = readFileSync(join(testdata, 'sample.seanim'));
  const { document, anims } = animbin.openFiles([
    { name: 'sample.seanim', bytes: anim },
    { name: 'sample.semodel', bytes: model },
  ]);
  assert.equal(document.format, 'semodel');
  const glb = document.glb({ anims });
  assert.equal(new TextDecoder().decode(glb.bytes.subarray(0, 4)), 'glTF');
  assert.ok(document.animations({ anims }).length >= 1);
});

test('the three.js loader gives a scene and its clips', { skip: !ok }, async () => {
  // The package's peer dependency three, from web/node_modules, as a project using it has it.
  const link = join(built, 'node_modules');
  if (!existsSync(link)) symlinkSync(join(root, 'web/node_modules'), link, 'dir');
  const { AnimbinLoader } = await import(join(built, 'pkg/loader.js'));
  const loader = new AnimbinLoader();
  // A model without textures: three's GLTFLoader decodes images with browser APIs only.
  const gltf = await loader.parseFiles([
    { name: 'sample.seanim', bytes: readFileSync(join(testdata, 'sample.seanim')) },
    { name: 'skeleton.semodel', bytes: readFileSync(join(testdata, 'skeleton.semodel')) },
  ]);
  assert.equal(gltf.animbin.format, 'semodel');
  assert.ok(gltf.scene.getObjectByProperty('type', 'Bone'));
  assert.ok(gltf.animations.length >= 1);
  assert.ok(gltf.animations[0].tracks.length > 0);
});

test('options are checked by the library\'s rules: a negative scale mirrors, as animbin convert --scale does', { skip: !ok }, () => {
  const file = join(testdata, 'sample.semodel');
  const doc = animbin.open(readFileSync(file), { name: 'sample.semodel' });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'animbin-node-'));
    // The file alone, as the package gets it (no texture files beside it to embed).
    const alone = join(dir, 'sample.semodel');
    copyFileSync(file, alone);
    execFileSync(animbinCommand, ['convert', '--scale=-2', alone, join(dir, 'mirrored.glb')], { stdio: 'pipe' });
    const mirrored = doc.convert('glb', { scale: -2 });
    assert.ok(Buffer.from(mirrored.bytes).equals(readFileSync(join(dir, 'mirrored.glb'))), 'scale -2 differs from the command\'s');
    // What the library refuses is refused, naming the option as JavaScript spells it.
    for (const [options, name] of [[{ scale: 0 }, 'scale'], [{ framerate: -1 }, 'framerate'], [{ animType: 'sideways' }, 'animType']]) {
      assert.throws(() => doc.convert('glb', options), (e) => e.name === 'AnimbinError' && e.message.startsWith(`options: ${name}: `),
        JSON.stringify(options));
    }
  } finally {
    doc.free();
  }
});

/** The package's README (web/pkg-src/README.md), as the package ships it. */
const readme = readFileSync(join(root, 'web/pkg-src/README.md'), 'utf8');

test('the package README\'s table of formats is the library\'s table', { skip: !ok }, () => {
  const section = readme.split('## Formats')[1];
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| format') && !l.startsWith('|---'));
  const cells = rows.map((r) => r.split('|').slice(1, -1).map((c) => c.trim()));
  const list = (text) => text.split(', ');
  assert.deepEqual(
    cells.map(([label, name, extensions, holds, targets]) => ({
      label, name: name.replaceAll('`', ''), extensions: list(extensions).map((e) => e.replace(/^\./, '')), holds: list(holds), targets: list(targets),
    })),
    animbin.formats().map(({ label, name, extensions, holds, targets }) => ({ label, name, extensions, holds, targets })),
  );
});

test('the package README\'s Node example runs as written', { skip: !ok }, () => {
  const example = readme.split('## Example (Node)')[1].split('```js\n')[1].split('```')[0];
  const dir = mkdtempSync(join(tmpdir(), 'animbin-readme-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(built, 'pkg'), join(dir, 'node_modules/animbin'), 'dir');
  writeFileSync(join(dir, 'reload.seanim'), readFileSync(join(testdata, 'sample.seanim')));
  writeFileSync(join(dir, 'example.mjs'), example);
  const out = execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // What its comment says it prints, for the sample it is given.
  assert.match(out, /^seanim \{[^}]*bone_count: 2,[^}]*frame_count: 11,/);
  const native = nativeConvert(join(dir, 'reload.seanim'), 'glb', 'glb');
  assert.ok(readFileSync(join(dir, 'reload.glb')).equals(native), 'the example\'s reload.glb differs from animbin convert\'s');
});

test('the package ships its README', { skip: !ok }, () => {
  const manifest = JSON.parse(readFileSync(join(built, 'pkg/package.json'), 'utf8'));
  for (const file of manifest.files) assert.ok(existsSync(join(built, 'pkg', file)), `package.json lists ${file}, which the package lacks`);
});

test('graph() gives the library\'s nodes with their world matrices, and the meshes each node places', { skip: !ok }, () => {
  // A game format: every node a bone, at its global bind pose (the file's own "global").
  const model = animbin.open(readFileSync(join(testdata, 'sample.semodel')), { name: 'sample.semodel' });
  const graph = model.graph();
  const bones = JSON.parse(model.dump()).data.model.bones.present;
  assert.deepEqual(graph.nodes.map((n) => [n.name, n.kind]), bones.map((b) => [b.name, 'bone']));
  for (const [i, bone] of bones.entries()) {
    const { x, y, z } = bone.global.position;
    assert.deepEqual(graph.nodes[i].world.slice(12), [x, y, z, 1], bone.name);
  }
  assert.deepEqual(graph.instances, []);
  model.free();
  // A Blender-made glTF: one mesh placed by three nodes, each where its translation puts it.
  const glb = readFileSync(join(testdata, 'graph/instanced.glb'));
  const doc = animbin.open(glb, { name: 'instanced.glb' });
  const placed = doc.graph();
  const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
  assert.deepEqual(placed.instances.map((i) => [placed.nodes[i.node].name, i.meshes.map((m) => placed.meshes[m])]),
    json.nodes.map((n) => [n.name, [json.meshes[n.mesh].name]]));
  for (const node of json.nodes) {
    const world = placed.nodes.find((n) => n.name === node.name).world;
    (node.translation ?? [0, 0, 0]).forEach((v, i) => assert.ok(Math.abs(world[12 + i] - v) < 1e-6, `${node.name}: ${world}`));
  }
  doc.free();
});
