// The page's benchmark (not a test): the time from choosing a large SEModel and SEAnim to the
// first drawn frame in headless Chromium, beside `animbin convert` of the same files to glb.
//   cargo xtask web && cargo build --release -p animbin-cli
//   cargo xtask web bench-files target/web-bench 48 && node web/bench.mjs target/web-bench
// (RUNS=N: runs of each, 3 by default; the best is compared.)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { built, root } from './tests/common.mjs';
import { serve } from './tests/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './tests/chromium.mjs';

const dir = process.argv[2] || join(root, 'target/web-bench');
const model = join(dir, 'large.semodel');
const anim = join(dir, 'large.seanim');
const animbin = process.env.ANIMBIN || join(root, 'target/release/animbin');
const runsEach = Number(process.env.RUNS || 3);
const mib = (f) => (statSync(f).size / 2 ** 20).toFixed(1);
// What is opened: the model alone, the animation alone, and the two together (the animation
// joined to the model's bones), each in the page and with the native command.
const cases = [
  { label: 'SEModel', files: [model] },
  { label: 'SEAnim', files: [anim] },
  { label: 'SEModel + SEAnim', files: [model, anim] },
];

function native(files) {
  const args = ['convert', files[0], ...files.slice(1).flatMap((f) => ['--anim', f]), join(dir, 'large.glb')];
  const start = process.hrtime.bigint();
  execFileSync(animbin, args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const server = await serve(built);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const page = await browser.newPage();
page.on('console', (m) => { if (process.env.DEBUG) console.log('console:', m.text()); });
page.on('crash', () => console.log('the page crashed'));
await page.goto(server.url);
// A small file first, so that the worker's WebAssembly is loaded before anything is timed.
await page.setInputFiles('#files', [join(root, 'testdata/sample.seanim')]);
await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 60_000 });

const best = (xs) => Math.min(...xs);
const drawingShare = [];

/** Seconds from choosing `files` to the first frame drawn of them (the page's 'ready' is set
 * once the view has rendered them; the next animation frame puts that picture on screen). */
async function pageRun(files) {
  await page.evaluate(() => {
    document.body.dataset.state = 'empty';
    performance.clearMarks();
  });
  const start = Date.now();
  await page.setInputFiles('#files', files);
  await page.waitForFunction(() => document.body.dataset.state === 'ready' || document.body.dataset.state === 'error', null, { timeout: 600_000, polling: 10 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  const seconds = (Date.now() - start) / 1000;
  const state = await page.evaluate(() => document.body.dataset.state);
  if (state !== 'ready') throw new Error(await page.textContent('#error'));
  // The share of three.js (the glb parsed, the view built and framed, drawn).
  const drawing = await page.evaluate(() => {
    const [opened] = performance.getEntriesByName('animbin-opened');
    const [drawn] = performance.getEntriesByName('animbin-first-frame');
    return opened && drawn ? (drawn.startTime - opened.startTime) / 1000 : NaN;
  });
  drawingShare.push(drawing);
  return seconds;
}

const list = (xs) => xs.map((x) => x.toFixed(2)).join(', ');
console.log(`files: ${model} (${mib(model)} MiB), ${anim} (${mib(anim)} MiB); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const { label, files } of cases) {
  const inPage = [];
  drawingShare.length = 0;
  for (let i = 0; i < runsEach; i += 1) inPage.push(await pageRun(files));
  const three = drawingShare[inPage.indexOf(best(inPage))];
  const command = [];
  for (let i = 0; i < runsEach; i += 1) command.push(native(files));
  console.log(`${label}: page, choose to first drawn frame: best ${best(inPage).toFixed(2)} s (${list(inPage)}); `
    + `of which three.js ${three.toFixed(2)} s; animbin convert to glb: best ${best(command).toFixed(2)} s (${list(command)}); ratio ${(best(inPage) / best(command)).toFixed(2)}x`);
}
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await browser.close();
server.close();
