// The page in a real browser: Debian's chromium driven by playwright-core, headless. For
// every file of testdata/: the info is `animbin info --json`'s, models draw, animations move,
// downloads are byte-equal to `animbin convert`'s; a truncated file shows its error and offset
// and the page goes on working. Screenshots go to target/web-shots/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { animbin, built, haveBuild, nativeConvert, nativeInfo, root, samples, testdata } from './common.mjs';
import { serve } from './serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';


let playwright = null;
try {
  playwright = await import('playwright-core');
} catch {
  playwright = null;
}
const ok = haveBuild() && need2();
function need2() {
  const have = playwright && existsSync(CHROMIUM);
  if (!have) {
    const what = !playwright ? 'playwright-core (npm ci in web/)' : `chromium (${CHROMIUM}; apt-get install chromium)`;
    if (process.env.CI === 'true') throw new Error(`CI=true: ${what} is missing`);
    console.log(`SKIPPED: ${what} is missing`);
  }
  return have;
}

const shots = join(root, 'target/web-shots');
let browser;
let server;
let page;
const requests = [];

/** Chooses `paths` in input#files and waits for the page to be ready or in error. */
async function choose(paths) {
  await page.setInputFiles('#files', paths);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 120_000 });
  return page.evaluate(() => document.body.dataset.state);
}

/** How many pixels of the 3D view differ from its background. */
function drawnPixels() {
  return page.evaluate(async () => {
    const canvas = document.getElementById('view');
    const image = new Image();
    image.src = canvas.toDataURL();
    await image.decode();
    const copy = new OffscreenCanvas(canvas.width, canvas.height);
    const g = copy.getContext('2d');
    g.drawImage(image, 0, 0);
    const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - 0x30) + Math.abs(data[i + 1] - 0x34) + Math.abs(data[i + 2] - 0x3c) > 24) n += 1;
    }
    return n;
  });
}

function viewPixels() {
  return page.evaluate(() => document.getElementById('view').toDataURL());
}

async function setToggle(id, on) {
  await page.evaluate(([id, on]) => {
    const box = document.getElementById(id);
    if (box.checked !== on) box.click();
  }, [id, on]);
}

async function scrub(seconds) {
  await page.evaluate((t) => {
    const time = document.getElementById('time');
    time.value = String(t);
    time.dispatchEvent(new Event('input'));
  }, seconds);
}

/** Chooses `target` and clicks Download: the name and bytes the page hands the browser to
 * save. */
async function saved(target) {
  await page.waitForFunction(() => document.body.dataset.details === 'ready', null, { timeout: 120_000 });
  await page.selectOption('#target', target);
  const before = await page.evaluate(() => window.animbinPage.saved().count);
  await page.click('#download', { timeout: 120_000 });
  await page.waitForFunction((n) => window.animbinPage.saved().count > n, before, { timeout: 120_000 });
  const last = await page.evaluate(() => window.animbinPage.saved());
  return { name: last.name, bytes: Buffer.from(last.base64, 'base64') };
}

/** The same through Chromium's own download: the file it saves. Chromium sometimes drops a
 * download that a page starts in quick succession after others (seen once in about three
 * runs of every sample, on one file, with the bytes handed over), so the per-file checks use
 * `saved` and this one runs once, in the textured-model test. */
async function download(target) {
  await page.waitForFunction(() => document.body.dataset.details === 'ready', null, { timeout: 120_000 });
  await page.selectOption('#target', target);
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.click('#download')]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

before(async () => {
  if (!ok) return;
  server = await serve(built);
  browser = await playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(server.url);
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
});

for (const name of samples) {
  const file = join(testdata, name);
  test(`page: ${name}: info, drawing, animation, downloads`, { skip: !ok, timeout: 300_000 }, async () => {
    const expected = nativeInfo(file);
    const state = await choose([file]);
    assert.equal(state, 'ready', await page.textContent('#error'));
    const shown = JSON.parse(await page.getAttribute('#info', 'data-json'));
    assert.deepEqual(shown, expected);
    for (const severity of await page.$$eval('#problems li[data-severity]', (lis) => lis.map((li) => li.dataset.severity))) {
      assert.ok(['error', 'warning'].includes(severity));
    }
    // Models draw: with the grid and the skeleton hidden, only meshes are drawn.
    const model = (expected.vertex_count ?? 0) > 0 || (expected.mesh_count ?? 0) > 0;
    if (model && nativeConvert(file, 'glb', 'glb')) {
      await setToggle('grid', false);
      await setToggle('skeleton', false);
      const drawn = await drawnPixels();
      await setToggle('grid', true);
      await setToggle('skeleton', true);
      assert.ok(drawn > 200, `${name}: only ${drawn} pixels drawn`);
    }
    // An animation changes the picture between two timeline positions.
    const duration = Number(await page.getAttribute('#time', 'max'));
    const keys = Number(await page.getAttribute('#time', 'data-keys'));
    if (duration > 0 && keys > 1) {
      await setToggle('grid', false);
      const pictures = new Set();
      for (const at of [0, 0.25, 0.5, 0.75, 1]) {
        await scrub(duration * at);
        pictures.add(await viewPixels());
      }
      await setToggle('grid', true);
      assert.ok(pictures.size > 1, `${name}: the picture does not change over the animation`);
    }
    // Downloads are byte-equal to the command's.
    const targets = await page.$$eval('#target option', (os) => os.map((o) => o.value));
    for (const [target, extension] of [['glb', 'glb'], ['cast', 'cast']]) {
      const native = nativeConvert(file, target, extension);
      if (!native) {
        assert.ok(!targets.includes(target) || true);
        continue;
      }
      assert.ok(targets.includes(target), `${name}: ${target} is not offered (${targets})`);
      const got = await saved(target);
      assert.equal(got.name, `${name.replace(/\.[^.]*$/, '')}.${extension}`);
      assert.ok(got.bytes.equals(native), `${name} -> ${target}: the download differs from animbin convert`);
    }
  });
}

test('page: a truncated file shows its error and offset, and the next file opens', { skip: !ok, timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'animbin-page-'));
  for (const name of ['sample.seanim', 'sample.semodel', 'sample.cast', 'sample.dmf']) {
    const bytes = readFileSync(join(testdata, name));
    const cut = join(dir, name);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    assert.equal(await choose([cut]), 'error', name);
    const offset = await page.getAttribute('#error', 'data-offset');
    assert.match(offset ?? '', /^\d+$/, `${name}: no offset`);
    assert.ok((await page.textContent('#error')).startsWith(`${name}: `), 'the error names the file');
    let native = '';
    try {
      execFileSync(animbin, ['validate', cut], { stdio: 'pipe' });
    } catch (e) {
      native = String(e.stderr);
    }
    assert.ok(native.includes(`byte ${offset}`), `${name}: the command says ${native}, the page offset ${offset}`);
    assert.equal(await choose([join(testdata, 'sample.seanim')]), 'ready');
  }
});

/** Pixels of the meshes alone (the grid and the skeleton hidden meanwhile). */
async function meshPixels() {
  await setToggle('grid', false);
  await setToggle('skeleton', false);
  const drawn = await drawnPixels();
  await setToggle('grid', true);
  await setToggle('skeleton', true);
  return drawn;
}

test('page: a textured, skinned model and a frame of its animation are kept as screenshots', { skip: !ok, timeout: 120_000 }, async () => {
  // sample.dmf: a quad with a checker texture, skinned to two bones, and a wave of the elbow.
  assert.equal(await choose([join(testdata, 'sample.dmf')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const duration = Number(await page.getAttribute('#time', 'max'));
  assert.ok(duration > 0, 'sample.dmf has its animation');
  await scrub(0);
  const atRest = await meshPixels();
  assert.ok(atRest > 2000, `sample.dmf: the mesh covers only ${atRest} pixels`);
  await page.locator('#view').screenshot({ path: join(shots, 'model.png') });
  const rest = await viewPixels();
  // A quarter in, the elbow is at the top of its wave; the camera, framed on the whole
  // animation, keeps the mesh in view.
  await scrub(duration / 4);
  const moved = await meshPixels();
  assert.ok(moved > 2000, `sample.dmf at ${duration / 4} s: the mesh covers only ${moved} pixels`);
  assert.notEqual(await viewPixels(), rest, 'the wave changes the picture');
  await page.locator('#view').screenshot({ path: join(shots, 'animation-frame.png') });
  await page.click('#play');
  await page.waitForTimeout(300);
  assert.equal(await page.textContent('#play'), 'Pause');
  await page.click('#play');
  await page.screenshot({ path: join(shots, 'page.png'), fullPage: true });
});

test('page: a Cast file (mesh, skeleton, animation) is kept as a screenshot', { skip: !ok, timeout: 120_000 }, async () => {
  assert.equal(await choose([join(testdata, 'sample.cast')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const duration = Number(await page.getAttribute('#time', 'max'));
  await scrub(duration / 2);
  const drawn = await meshPixels();
  assert.ok(drawn > 2000, `sample.cast: the mesh covers only ${drawn} pixels`);
  await page.locator('#view').screenshot({ path: join(shots, 'cast.png') });
});

test('page: a model with an animation file beside it plays, framed over the whole animation', { skip: !ok, timeout: 120_000 }, async () => {
  assert.equal(await choose([join(testdata, 'sample.semodel'), join(testdata, 'sample.seanim')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  assert.equal(JSON.parse(await page.getAttribute('#info', 'data-json')).format, 'semodel');
  const duration = Number(await page.getAttribute('#time', 'max'));
  assert.ok(duration > 0, 'the animation joined the model');
  // sample.seanim carries the origin 100 units up (a camera framed on the first pose loses
  // it): at every time, what is drawn (the skeleton; the mesh, stretched by j_spine's 40
  // units along Z, turns its back to the camera) stays in view.
  await setToggle('grid', false);
  const pictures = new Set();
  for (const at of [0, 0.25, 0.5, 0.75, 1]) {
    await scrub(duration * at);
    const drawn = await drawnPixels();
    assert.ok(drawn > 50, `at ${duration * at} s nothing is in view (${drawn} pixels)`);
    pictures.add(await viewPixels());
  }
  await setToggle('grid', true);
  assert.ok(pictures.size > 1, 'the animation moves the model');
  await page.locator('#view').screenshot({ path: join(shots, 'semodel-seanim.png') });
});

test('page: files chosen as soon as the page loads are opened (the worker is still loading its wasm)', { skip: !ok, timeout: 120_000 }, async () => {
  const fresh = await page.context().newPage();
  fresh.on('request', (r) => requests.push(r.url()));
  try {
    await fresh.goto(server.url, { waitUntil: 'domcontentloaded' });
    await fresh.setInputFiles('#files', [join(testdata, 'sample.seanim')]);
    await fresh.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 60_000 });
    assert.equal(await fresh.evaluate(() => document.body.dataset.state), 'ready');
    assert.deepEqual(JSON.parse(await fresh.getAttribute('#info', 'data-json')), nativeInfo(join(testdata, 'sample.seanim')));
  } finally {
    await fresh.close();
  }
});

/** The state the page exposes to its tests (window.animbinPage.state()). */
function viewState() {
  return page.evaluate(() => window.animbinPage.state());
}

/** The glb's JSON chunk. */
function glbJson(bytes) {
  const length = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(20, 20 + length).toString('utf8'));
}

/** The duration of each animation of a glb: its samplers' latest input time. */
function glbDurations(bytes) {
  const json = glbJson(bytes);
  return json.animations.map((a) => Math.max(...a.samplers.map((s) => json.accessors[s.input].max[0])));
}

/** A `width` x `height` PNG of one RGB colour (8-bit, no filter), written as the format says. */
function solidPng(width, height, [r, g, b]) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Runs the animbin command (the one the other tests compare with) in `cwd`. */
function command(args, cwd) {
  execFileSync(animbin, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

test('page: speed scales how far playback advances (a clock advanced by hand)', { skip: !ok, timeout: 120_000 }, async () => {
  assert.equal(await choose([join(testdata, 'sample.seanim')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const { clips } = await viewState();
  const duration = clips[0].duration;
  assert.ok(duration > 0.3, `sample.seanim lasts ${duration} s`);
  await page.evaluate(() => window.animbinPage.manualClock(true));
  try {
    await scrub(0);
    await page.click('#play');
    assert.equal((await viewState()).playing, true);
    // Each step of 0.01 s of clock at speed s moves the time by 0.01 s times s; the range
    // input's step (a frame, 1/30 s) must not swallow the small steps of slow speeds.
    let expected = 0;
    for (const speed of ['1', '0.25', '2', '0.5']) {
      await page.selectOption('#speed', speed);
      for (let i = 0; i < 4; i += 1) {
        const shown = await page.evaluate(() => window.animbinPage.advance(0.01));
        expected += 0.01 * Number(speed);
        assert.ok(Math.abs(shown - expected) < 1e-9, `speed ${speed}: time ${shown}, expected ${expected}`);
      }
      const state = await viewState();
      assert.equal(state.speed, Number(speed));
      assert.ok(Math.abs(state.mixerTime - expected) < 1e-9, `the pose is at ${state.mixerTime} s, not ${expected}`);
      assert.equal(await page.textContent('#clock'), `${expected.toFixed(3)} s (frame ${Math.round(expected * 30)})`);
    }
    // Past the end, playback goes round to the start (sample.seanim loops).
    await page.selectOption('#speed', '2');
    const shown = await page.evaluate((dt) => window.animbinPage.advance(dt), duration / 2);
    const wrapped = (expected + duration) % duration;
    assert.ok(Math.abs(shown - wrapped) < 1e-9, `after the end: ${shown}, expected ${wrapped}`);
    // Paused, the clock moves nothing.
    await page.click('#play');
    assert.equal(await page.evaluate(() => window.animbinPage.advance(1)), shown);
  } finally {
    await page.selectOption('#speed', '1');
    await page.evaluate(() => window.animbinPage.manualClock(false));
  }
});

test('page: a glb animbin wrote with several animations offers each in the picker', { skip: !ok, timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'animbin-page-'));
  command(['convert', join(testdata, 'sample.semodel'), '--anim', join(testdata, 'sample.seanim'),
    '--anim', join(testdata, 'sample_every_block.seanim'), join(dir, 'several.glb')], dir);
  const glb = readFileSync(join(dir, 'several.glb'));
  const names = glbJson(glb).animations.map((a) => a.name);
  const durations = glbDurations(glb);
  assert.equal(names.length, 2);
  assert.equal(await choose([join(dir, 'several.glb')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const options = await page.$$eval('#animation option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, names.map((n, i) => [String(i), n]));
  const pictures = [];
  for (const [index, name] of names.entries()) {
    await page.selectOption('#animation', String(index));
    const state = await viewState();
    assert.equal(state.clip, index, name);
    assert.equal(state.time, 0);
    assert.ok(Math.abs(Number(await page.getAttribute('#time', 'max')) - durations[index]) < 1e-6,
      `${name}: the timeline ends at ${await page.getAttribute('#time', 'max')} s, the glb's animation at ${durations[index]} s`);
    await scrub(durations[index]);
    pictures.push(await viewPixels());
  }
  assert.notEqual(pictures[0], pictures[1], 'the two animations pose the model differently at their ends');
});

test('page: notes are marks on the timeline at their times, for the animation chosen', { skip: !ok, timeout: 120_000 }, async () => {
  // The model with two animation files: sample.seanim (2 notes) and sample_every_block.seanim (1).
  const files = ['sample.seanim', 'sample_every_block.seanim'];
  assert.equal(await choose([join(testdata, 'sample.semodel'), ...files.map((f) => join(testdata, f))]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const dir = mkdtempSync(join(tmpdir(), 'animbin-page-'));
  command(['convert', join(testdata, 'sample.semodel'), ...files.flatMap((f) => ['--anim', join(testdata, f)]), join(dir, 'joined.glb')], dir);
  const durations = glbDurations(readFileSync(join(dir, 'joined.glb')));
  for (const [index, file] of files.entries()) {
    await page.selectOption('#animation', String(index));
    const dump = JSON.parse(execFileSync(animbin, ['dump', join(testdata, file)], { encoding: 'utf8' }));
    const { notes, framerate } = dump.data;
    assert.ok(notes.length > 0, file);
    const marks = await page.$$eval('#marks span', (spans) => spans.map((s) => {
      const box = s.getBoundingClientRect();
      return { name: s.dataset.name, frame: Number(s.dataset.frame), x: box.left + box.width / 2, width: box.width, height: box.height };
    }));
    assert.deepEqual(marks.map((m) => [m.name, m.frame]), notes.map((n) => [n.name, n.frame]), file);
    // Each mark is drawn over the slider where the thumb stands at the note's time.
    const slider = await page.$eval('#time', (t) => {
      const box = t.getBoundingClientRect();
      return { left: box.left, width: box.width };
    });
    const thumb = 16;
    for (const [i, mark] of marks.entries()) {
      assert.ok(mark.width > 0 && mark.height > 0, `${file}: mark ${mark.name} is not drawn`);
      const fraction = notes[i].frame / framerate / durations[index];
      const at = slider.left + thumb / 2 + fraction * (slider.width - thumb);
      assert.ok(Math.abs(mark.x - at) <= 1.5, `${file}: ${mark.name} at x ${mark.x}, its time at ${at}`);
    }
  }
});

test('page: a texture chosen with its model is the material\'s map (in the glb and in the view)', { skip: !ok, timeout: 120_000 }, async () => {
  // sample.semodel's material "body" names body_c.png as its diffuse map.
  const dir = mkdtempSync(join(tmpdir(), 'animbin-page-'));
  const model = join(dir, 'sample.semodel');
  writeFileSync(model, readFileSync(join(testdata, 'sample.semodel')));
  const png = solidPng(8, 4, [250, 30, 20]);
  writeFileSync(join(dir, 'body_c.png'), png);
  command(['convert', model, join(dir, 'native.glb')], dir);
  const native = readFileSync(join(dir, 'native.glb'));
  const json = glbJson(native);
  assert.equal(json.images.find((i) => i.name === 'body_c.png')?.mimeType, 'image/png', 'the command embeds the texture');

  assert.equal(await choose([model, join(dir, 'body_c.png')]), 'ready');
  assert.equal(JSON.parse(await page.getAttribute('#info', 'data-json')).format, 'semodel');
  const state = await viewState();
  const body = state.materials.find((m) => m.name === 'body');
  assert.deepEqual(body?.map, { width: 8, height: 4 }, JSON.stringify(state.materials));
  // The glb the page builds (its download) is the command's, texture embedded.
  const got = await download('glb');
  assert.ok(got.bytes.equals(native), 'the page\'s glb with the texture differs from animbin convert\'s');
  // The texture colours the mesh: red dominates what is drawn (the skeleton and grid hidden).
  await setToggle('grid', false);
  await setToggle('skeleton', false);
  const red = await page.evaluate(() => {
    const canvas = document.getElementById('view');
    const copy = new OffscreenCanvas(canvas.width, canvas.height);
    copy.getContext('2d').drawImage(canvas, 0, 0);
    const data = copy.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 120 && data[i] > 2 * data[i + 1] && data[i] > 2 * data[i + 2]) n += 1;
    return n;
  });
  await setToggle('grid', true);
  await setToggle('skeleton', true);
  assert.ok(red > 500, `only ${red} red pixels: the texture is not drawn`);

  // Without the PNG the map is absent (the texture is what made it).
  assert.equal(await choose([model]), 'ready');
  assert.equal((await viewState()).materials.find((m) => m.name === 'body')?.map, null);
});

test('page: the Z-up switch turns the file\'s Z to the view\'s up and back', { skip: !ok, timeout: 120_000 }, async () => {
  // sample.semodel: a quad 1 wide (X) and 2 high (Y), flat in Z.
  assert.equal(await choose([join(testdata, 'sample.semodel')]), 'ready');
  await setToggle('zup', false);
  const size = ({ box }) => box.max.map((v, i) => v - box.min[i]);
  const yUp = await viewState();
  assert.equal(yUp.up, 'y');
  const [x, y, z] = size(yUp);
  assert.ok(y > 1.5 && Math.abs(z) < 1e-6, `Y-up: the quad spans ${size(yUp)}`);
  const before = await viewPixels();
  await setToggle('zup', true);
  const zUp = await viewState();
  assert.equal(zUp.up, 'z');
  // Turned a quarter about X: the file's Y lies along the view's Z, its Z is the view's up.
  const turned = size(zUp);
  assert.ok(Math.abs(turned[0] - x) < 1e-6 && Math.abs(turned[1] - z) < 1e-6 && Math.abs(turned[2] - y) < 1e-6,
    `Z-up: the quad spans ${turned}, Y-up ${[x, y, z]}`);
  assert.ok(Math.abs(zUp.box.max[1] - yUp.box.max[2]) < 1e-6, 'the file\'s +Z is the view\'s +Y');
  assert.notEqual(await viewPixels(), before, 'the picture turns');
  await setToggle('zup', false);
  assert.deepEqual((await viewState()).box, yUp.box);
});


// ---- the scene graph: meshes placed by their nodes --------------------------------------

/** A 4x4 matrix (column by column, as glTF and three.js keep them) of a translation, a
 * rotation (x, y, z, w) and a scale. */
function trs([tx, ty, tz] = [0, 0, 0], [x, y, z, w] = [0, 0, 0, 1], [sx, sy, sz] = [1, 1, 1]) {
  return [
    (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
    2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
    2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
    tx, ty, tz, 1,
  ];
}

/** The product a * b of two column-by-column matrices (b applied first). */
function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c += 1) for (let r = 0; r < 4; r += 1) for (let k = 0; k < 4; k += 1) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

function transform(m, [x, y, z]) {
  return [0, 1, 2].map((r) => m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
}

/** The box of `points` moved by `m`. */
function boxOf(m, points) {
  const moved = points.map((p) => transform(m, p));
  return { min: [0, 1, 2].map((i) => Math.min(...moved.map((p) => p[i]))), max: [0, 1, 2].map((i) => Math.max(...moved.map((p) => p[i]))) };
}

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= tolerance, `${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`));
}

/** Blender's object matrix (location, XYZ Euler degrees, scale) as the glTF exporter's +Y-up
 * file places it: the exporter turns Blender's (x, y, z) into (x, z, -y), vertices and
 * nodes alike, so a vertex v of the mesh is drawn at C * M * v. */
function blenderPlacement(location, degrees, scale) {
  const [a, b, c] = degrees.map((d) => (d * Math.PI) / 180);
  // XYZ Euler: X first, then Y, then Z.
  const q = (axis, angle) => axis.map((v) => v * Math.sin(angle / 2)).concat(Math.cos(angle / 2));
  const rotation = multiply(trs(undefined, q([0, 0, 1], c)), multiply(trs(undefined, q([0, 1, 0], b)), trs(undefined, q([1, 0, 0], a))));
  const toYUp = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1];
  return multiply(toYUp, multiply(trs(location), multiply(rotation, trs(undefined, undefined, scale))));
}

test('page: an instanced mesh is drawn once per node that places it, where the node puts it (instanced.glb, Blender-made)', { skip: !ok, timeout: 120_000 }, async () => {
  assert.equal(await choose([join(testdata, 'graph/instanced.glb')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const state = await viewState();
  // make_graph_assets.py: the pyramid (5 vertices) used by three objects.
  const pyramid = [[-0.5, -0.5, 0], [0.5, -0.5, 0], [0.5, 0.5, 0], [-0.5, 0.5, 0], [0, 0, 1]];
  const objects = {
    PyramidA: [[0, 0, 0], [0, 0, 0], [1, 1, 1]],
    PyramidB: [[3, 0, 1], [0, 0, 45], [2, 2, 2]],
    PyramidC: [[-2, 2, 0], [30, 0, 60], [1, 0.5, 3]],
  };
  assert.deepEqual(state.meshes.map((m) => m.node).sort(), Object.keys(objects));
  for (const mesh of state.meshes) {
    const expected = boxOf(blenderPlacement(...objects[mesh.node]), pyramid);
    assertClose(mesh.box.min, expected.min, 1e-5, `${mesh.node} min`);
    assertClose(mesh.box.max, expected.max, 1e-5, `${mesh.node} max`);
    // The library's world matrix of the node (animbin's graph) is where the page draws it.
    const node = state.graph.nodes.find((n) => n.name === mesh.node);
    assertClose(mesh.world, node.world, 1e-5, `${mesh.node}: the page's matrix against the library's`);
  }
  assert.deepEqual(state.graph.instances.map((i) => state.graph.nodes[i.node].name).sort(), Object.keys(objects));
  assert.equal(await page.getAttribute('#graph li[data-kind="instance"]', 'data-count'), '3');
  // Framed on what is placed: every pyramid inside the box framed.
  const all = state.meshes.map((m) => m.box);
  const { center, radius } = state.framed;
  for (const box of all) for (const corner of [box.min, box.max]) {
    assert.ok(Math.hypot(...corner.map((v, i) => v - center[i])) <= radius * (1 + 1e-6), `${corner} outside the framed sphere ${JSON.stringify(state.framed)}`);
  }
  await setToggle('grid', false);
  await setToggle('skeleton', false);
  assert.ok(await drawnPixels() > 2000, 'the pyramids are in view');
  await setToggle('grid', true);
  await setToggle('skeleton', true);
  await page.locator('#view').screenshot({ path: join(shots, 'instanced.png') });
});

test('page: a mesh under an animated, turned and scaled node moves with it (a glTF the test writes)', { skip: !ok, timeout: 120_000 }, async () => {
  // A node "Carrier" (turned a quarter about Y, scaled 2, moved from (10, 0, 0) to (10, 5, 0)
  // over one second) above two nodes that place one triangle: "TileA" 1 along X,
  // "TileB" 3 along Z and stretched 3 along Y.
  const triangle = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
  const h = Math.SQRT1_2;
  const carrier = { rotation: [0, h, 0, h], scale: [2, 2, 2] };
  const keys = [[10, 0, 0], [10, 5, 0]];
  const tiles = { TileA: { translation: [1, 0, 0] }, TileB: { translation: [0, 0, 3], scale: [1, 3, 1] } };
  const floats = new Float32Array([...triangle.flat(), 0, 1, ...keys.flat()]);
  const bin = Buffer.from(floats.buffer);
  const json = {
    asset: { version: '2.0', generator: 'animbin browser test' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [
      { name: 'Carrier', translation: keys[0], ...carrier, children: [1, 2] },
      { name: 'TileA', mesh: 0, ...tiles.TileA },
      { name: 'TileB', mesh: 0, ...tiles.TileB },
    ],
    meshes: [{ name: 'Tile', primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 8 }, { buffer: 0, byteOffset: 44, byteLength: 24 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 2, componentType: 5126, count: 2, type: 'VEC3' },
    ],
    animations: [{ name: 'carry', samplers: [{ input: 1, output: 2 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
  };
  const pad = (b, fill) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4, fill)]);
  const text = pad(Buffer.from(JSON.stringify(json)), 0x20);
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data]);
  };
  const body = Buffer.concat([chunk('JSON', text), chunk('BIN\0', pad(bin, 0))]);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'latin1');
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + body.length, 8);
  const file = join(mkdtempSync(join(tmpdir(), 'animbin-page-')), 'carried.glb');
  writeFileSync(file, Buffer.concat([header, body]));

  assert.equal(await choose([file]), 'ready', await page.textContent('#error'));
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const expectAt = async (translation, when) => {
    const state = await viewState();
    const above = trs(translation, carrier.rotation, carrier.scale);
    assert.deepEqual(state.meshes.map((m) => m.node).sort(), ['TileA', 'TileB'], when);
    for (const mesh of state.meshes) {
      const { translation: t, scale } = tiles[mesh.node];
      const expected = boxOf(multiply(above, trs(t, undefined, scale)), triangle);
      assertClose(mesh.box.min, expected.min, 1e-5, `${mesh.node} ${when} min`);
      assertClose(mesh.box.max, expected.max, 1e-5, `${mesh.node} ${when} max`);
    }
    return state;
  };
  await scrub(0);
  const rest = await expectAt(keys[0], 'at 0 s');
  // At rest, the library's world matrix of each tile's node is where the page draws it.
  for (const mesh of rest.meshes) {
    assertClose(mesh.world, rest.graph.nodes.find((n) => n.name === mesh.node).world, 1e-5, `${mesh.node}: the library's matrix`);
  }
  assert.equal(rest.graph.instances.length, 2);
  await scrub(1);
  await expectAt(keys[1], 'at 1 s');
  await scrub(0.5);
  await expectAt([10, 2.5, 0], 'at 0.5 s');
  // Framed over the animation: the tiles stay inside the box framed at every time.
  for (const at of [0, 0.5, 1]) {
    await scrub(at);
    const state = await viewState();
    for (const mesh of state.meshes) for (const corner of [mesh.box.min, mesh.box.max]) {
      assert.ok(Math.hypot(...corner.map((v, i) => v - state.framed.center[i])) <= state.framed.radius * (1 + 1e-6), `at ${at} s ${mesh.node} leaves the view`);
    }
  }
});

test('page: a Blender-made animated mesh without a skin moves with its node (unskinned_animated.glb)', { skip: !ok, timeout: 120_000 }, async () => {
  assert.equal(await choose([join(testdata, 'graph/unskinned_animated.glb')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const cube = [-0.5, 0.5].flatMap((x) => [-0.5, 0.5].flatMap((y) => [-0.5, 0.5].map((z) => [x, y, z])));
  // make_graph_assets.py's keys (frame, location, XYZ degrees, scale) at 24 frames a second.
  const keys = [[0, [0, 0, 0], [0, 0, 0], [1, 1, 1]], [5, [1, 0.5, 2], [0, 45, 30], [1.5, 1, 0.5]], [9, [-1, 1, 0.5], [90, 0, 0], [0.5, 0.5, 2]]];
  for (const [frame, ...placement] of keys) {
    await scrub(frame / 24);
    const [crate] = (await viewState()).meshes;
    assert.equal(crate.node, 'Crate');
    const expected = boxOf(blenderPlacement(...placement), cube);
    assertClose(crate.box.min, expected.min, 1e-4, `frame ${frame} min`);
    assertClose(crate.box.max, expected.max, 1e-4, `frame ${frame} max`);
  }
});

test('page: cameras and lights of the file are listed from the library\'s graph, and the view looks through a camera where the library places it (cameras_light.glb)', { skip: !ok, timeout: 120_000 }, async () => {
  assert.equal(await choose([join(testdata, 'graph/cameras_light.glb')]), 'ready');
  await page.waitForFunction(() => document.body.dataset.details === 'ready');
  const { graph } = await viewState();
  assert.deepEqual(graph.cameras.map((c) => Object.keys(c.projection)[0]).sort(), ['orthographic', 'perspective']);
  const lines = await page.$$eval('#graph li[data-kind="camera"], #graph li[data-kind="light"]', (lis) => lis.map((li) => li.textContent));
  assert.equal(lines.length, 4, lines.join('; '));
  assert.ok(lines.some((l) => l.includes('PerspCamera') && l.includes('perspective')), lines.join('; '));
  // The perspective camera's node sits at Blender's (6, -6, 4)... as glTF's (6, 4, 6).
  const perspective = graph.cameras.findIndex((c) => 'perspective' in c.projection);
  const node = graph.nodes[graph.cameras[perspective].node];
  assertClose(node.world.slice(12, 15), [6, 4, 6], 1e-5, 'the camera node');
  // Looking through it: the view's camera stands where the library places the node, turned
  // as it is, with its field of view (positions in the view's unit: the file's, less the
  // framed centre, over the framed radius).
  const framedPicture = await viewPixels();
  await page.selectOption('#viewpoint', String(perspective));
  const through = await viewState();
  assert.equal(through.lookingThrough.type, 'PerspectiveCamera');
  const { center, radius } = through.framed;
  assertClose(through.lookingThrough.position.map((v, i) => v * radius + center[i]), [6, 4, 6], 1e-6, 'the camera looked through');
  const turn = glbNodeRotation(join(testdata, 'graph/cameras_light.glb'), node.name);
  const dot = through.lookingThrough.quaternion.reduce((sum, v, i) => sum + v * turn[i], 0);
  assert.ok(Math.abs(Math.abs(dot) - 1) < 1e-6, `turned ${through.lookingThrough.quaternion}, the node ${turn}`);
  assert.ok(Math.abs(through.lookingThrough.fov - (graph.cameras[perspective].projection.perspective.yfov * 180) / Math.PI) < 1e-9);
  assert.notEqual(await viewPixels(), framedPicture, 'the view changes');
  const orthographic = graph.cameras.findIndex((c) => 'orthographic' in c.projection);
  await page.selectOption('#viewpoint', String(orthographic));
  assert.equal((await viewState()).lookingThrough.type, 'OrthographicCamera');
  await page.selectOption('#viewpoint', '-1');
  assert.equal((await viewState()).lookingThrough, null);
  assert.equal(await viewPixels(), framedPicture, 'back to the framed view');
});

/** The rotation of the glb node called `name`, as its JSON holds it. */
function glbNodeRotation(file, name) {
  return glbJson(readFileSync(file)).nodes.find((n) => n.name === name).rotation;
}

// ---- extreme values ----------------------------------------------------------------------

/** `animbin dump FILE` as an object. */
function dumpOf(file) {
  return JSON.parse(execFileSync(animbin, ['dump', file], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

/** Writes `dump` (edited) back through the command as `name` in `dir`. */
function written(dir, name, dump) {
  const json = join(dir, `${name}.json`);
  writeFileSync(json, JSON.stringify(dump));
  command(['convert', json, join(dir, name)], dir);
  return join(dir, name);
}

/** The view's framing, camera and grid are numbers of the view's own size. */
function assertBounded(state, what) {
  const numbers = [...state.camera.position, state.camera.near, state.camera.far, state.grid.scale, ...state.grid.position];
  assert.ok(numbers.every(Number.isFinite), `${what}: ${JSON.stringify(state.camera)} ${JSON.stringify(state.grid)}`);
  assert.ok(Math.hypot(...state.camera.position) < 10 && state.camera.far < 1000 && state.grid.scale < 10,
    `${what}: the camera or the grid is not of the view's size: ${JSON.stringify(state.camera)} ${JSON.stringify(state.grid)}`);
}

test('page: legal extreme values (a mesh-only SEModel at -3.5e30, a Cast rig keyed there) leave the page answering and the next file opens', { skip: !ok, timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'animbin-page-'));
  // The SEModel sample without its bones, its vertices spread over -3.5e30.
  const model = dumpOf(join(testdata, 'sample.semodel'));
  model.data.model.bones.present = [];
  for (const mesh of model.data.model.meshes.present) {
    mesh.max_influence = 0;
    mesh.weights = [];
    mesh.positions = mesh.positions.map((_, i) => ({ x: i % 2 ? -3.5e30 : 0, y: -3.5e30 * (i >> 1), z: -3.5e30 }));
  }
  for (const material of model.data.model.materials.present) material.maps = null;
  const far = written(dir, 'far.semodel', model);
  // The Cast sample (a mesh skinned to a rig), its root keyed between -3.5e30 and 3.5e30.
  const cast = dumpOf(join(testdata, 'sample.cast'));
  for (const node of cast.data.nodes.filter((n) => n.id === 'curv')) {
    const props = Object.fromEntries(node.properties.map((p) => [p.name, p]));
    if (['tx', 'ty', 'tz'].includes(props.kp.values[0])) props.kv.values = props.kv.values.map((_, i) => (i % 2 ? 3.5e30 : -3.5e30));
  }
  const keyed = written(dir, 'far.cast', cast);

  for (const file of [far, keyed]) {
    const name = file.split('/').pop();
    assert.equal(await choose([file]), 'ready', `${name}: ${await page.textContent('#error')}`);
    await page.waitForFunction(() => document.body.dataset.details === 'ready');
    assertBounded(await viewState(), name);
    // The page answers and draws: the model is framed where it is.
    await setToggle('grid', false);
    await setToggle('skeleton', false);
    const drawn = await drawnPixels();
    await setToggle('grid', true);
    await setToggle('skeleton', true);
    if (file === far) assert.ok(drawn > 200, `${name}: only ${drawn} pixels drawn`);
    // Playback over the whole animation, by the timeline and by the clock.
    const duration = Number(await page.getAttribute('#time', 'max'));
    for (const at of [0, 0.25, 0.5, 0.75, 1]) {
      await scrub(duration * at);
      assertBounded(await viewState(), `${name} at ${duration * at} s`);
      await drawnPixels();
    }
    if (duration > 0) {
      await page.evaluate(() => window.animbinPage.manualClock(true));
      try {
        await page.click('#play');
        for (let i = 0; i < 5; i += 1) await page.evaluate((dt) => window.animbinPage.advance(dt), duration / 3);
        await page.click('#play');
        assertBounded(await viewState(), `${name} played`);
      } finally {
        await page.evaluate(() => window.animbinPage.manualClock(false));
      }
    }
    // Z-up frames the file again, bounded too.
    await setToggle('zup', true);
    assertBounded(await viewState(), `${name} Z-up`);
    await setToggle('zup', false);
    // The next file opens.
    assert.equal(await choose([join(testdata, 'sample.seanim')]), 'ready', `after ${name}`);
  }
});

// ---- the empty state ---------------------------------------------------------------------

test('page: before any file, the page says what to drop and what it does, and its sample opens', { skip: !ok, timeout: 120_000 }, async () => {
  const fresh = await page.context().newPage();
  fresh.on('request', (r) => requests.push(r.url()));
  try {
    await fresh.goto(server.url);
    assert.equal(await fresh.evaluate(() => document.body.dataset.state), 'empty');
    assert.ok(await fresh.isVisible('#empty'));
    assert.match(await fresh.textContent('#empty h2'), /Drop files/);
    // No empty download list: the panel waits for a file.
    assert.equal(await fresh.isVisible('#target'), false);
    // The formats are the library's table.
    await fresh.waitForFunction(() => document.getElementById('formats').dataset.labels);
    const labels = JSON.parse(await fresh.getAttribute('#formats', 'data-labels'));
    const { formats } = await import(join(built, 'pkg/index.js'));
    assert.deepEqual(labels, formats().map((f) => f.label));
    await fresh.screenshot({ path: join(shots, 'empty.png') });
    // The sample opens as the command reads it.
    await fresh.click('#sample');
    await fresh.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 60_000 });
    assert.equal(await fresh.evaluate(() => document.body.dataset.state), 'ready', await fresh.textContent('#error'));
    assert.deepEqual(JSON.parse(await fresh.getAttribute('#info', 'data-json')), nativeInfo(join(testdata, 'sample.dmf')));
    assert.equal(await fresh.isVisible('#empty'), false);
    assert.ok(await fresh.isVisible('#target'));
  } finally {
    await fresh.close();
  }
});

test('page: no request leaves the page\'s own origin', { skip: !ok }, () => {
  const foreign = requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('blob:') && !url.startsWith('data:'));
  assert.deepEqual(foreign, []);
});
