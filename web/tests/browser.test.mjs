// The page in a real browser: Debian's chromium driven by playwright-core, headless. For
// every file of testdata/: the info is `animbin info --json`'s, models draw, animations move,
// downloads are byte-equal to `animbin convert`'s; a truncated file shows its error and offset
// and the page goes on working. Screenshots go to target/web-shots/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { built, haveBuild, nativeConvert, nativeInfo, root, samples, testdata } from './common.mjs';
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
      const got = await download(target);
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
      (await import('node:child_process')).execFileSync(join(root, 'target/debug/animbin'), ['validate', cut], { stdio: 'pipe' });
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

test('page: no request leaves the page\'s own origin', { skip: !ok }, () => {
  const foreign = requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('blob:') && !url.startsWith('data:'));
  assert.deepEqual(foreign, []);
});
