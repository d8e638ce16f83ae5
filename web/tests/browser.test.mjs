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
    assert.ok((await page.textContent('#error')).length > 0);
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

test('page: no request leaves the page\'s own origin', { skip: !ok }, () => {
  const foreign = requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('blob:') && !url.startsWith('data:'));
  assert.deepEqual(foreign, []);
});
