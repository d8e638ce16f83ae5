// The page's benchmark (not a test): the time from choosing a large SEModel and SEAnim to the
// first drawn frame in headless Chromium, beside `animbin convert` of the same files to glb.
//   cargo xtask web bench [RUNS]        (builds what it needs, then runs this)
// or by hand:
//   cargo xtask web && cargo build --release -p animbin-cli
//   cargo xtask web bench-files target/web-bench 48 && RUNS=5 node web/bench.mjs target/web-bench
// (PAGE=DIR: the built page to time, target/web by default: another build of it, to compare.)
// Each run opens a fresh page (a new worker, its WebAssembly memory as small as at the start)
// and loads a small file first, so that what is timed is the choice of the large files and
// nothing of the page's own start. Page and command runs alternate, so that both see the
// same load on the machine; the medians are compared.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { built, root } from './tests/common.mjs';
import { serve } from './tests/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './tests/chromium.mjs';

const dir = process.argv[2] || join(root, 'target/web-bench');
const model = join(dir, 'large.semodel');
const anim = join(dir, 'large.seanim');
const animbin = process.env.ANIMBIN || join(root, 'target/release/animbin');
const runs = Number(process.env.RUNS || 5);
const pageDir = process.env.PAGE || built;
for (const [what, path] of [['the SEModel', model], ['the SEAnim', anim], ['the release command', animbin], ['the page', join(pageDir, 'index.html')]]) {
  if (!existsSync(path)) throw new Error(`${what} is missing (${path}): run cargo xtask web bench`);
}
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

const server = await serve(pageDir);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });

/** Seconds from choosing `files` to the first frame drawn of them in a fresh page, and the
 * seconds of each phase the page counts. The time runs from the moment the page is given the
 * files (the input's change event, seen before the page's own listener: what playwright
 * takes to hand a 50 MiB file over to the browser, about 1.3 s here, is no part of the page)
 * to the animation frame after the page's 'ready', which is set once the view has rendered
 * them (that frame puts the picture on screen). */
async function pageRun(files) {
  const page = await browser.newPage();
  let crashed = false;
  page.on('crash', () => { crashed = true; });
  page.on('console', (m) => { if (process.env.DEBUG) console.log('console:', m.text()); });
  try {
    await page.goto(server.url);
    // A small file first: the worker's WebAssembly is then loaded and compiled.
    await page.setInputFiles('#files', [join(root, 'testdata/sample.seanim')]);
    await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 60_000 });
    await page.evaluate(() => {
      document.body.dataset.state = 'empty';
      document.addEventListener('change', () => { window.benchChosenAt = performance.now(); }, { capture: true, once: true });
    });
    await page.setInputFiles('#files', files);
    await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 600_000, polling: 10 });
    const seconds = await page.evaluate(() => new Promise((resolve) => {
      requestAnimationFrame(() => resolve((performance.now() - window.benchChosenAt) / 1000));
    }));
    if ((await page.evaluate(() => document.body.dataset.state)) !== 'ready') throw new Error(await page.textContent('#error'));
    return { seconds, phases: await page.evaluate(() => window.animbinPage?.timings?.() ?? {}) };
  } catch (e) {
    throw new Error(crashed ? 'the tab crashed' : e.message);
  } finally {
    await page.close();
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const list = (xs) => xs.map((x) => x.toFixed(2)).join(', ');
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`files: ${model} (${mib(model)} MiB), ${anim} (${mib(anim)} MiB); ${runs} runs each; load average ${load()}`);
let failures = 0;
for (const { label, files } of cases) {
  const inPage = [];
  const command = [];
  const phases = {};
  const failed = [];
  for (let i = 0; i < runs; i += 1) {
    try {
      const run = await pageRun(files);
      inPage.push(run.seconds);
      for (const [phase, s] of Object.entries(run.phases)) (phases[phase] ??= []).push(s);
    } catch (e) {
      failed.push(e.message);
    }
    command.push(native(files));
  }
  failures += failed.length;
  const of = Object.entries(phases).map(([p, xs]) => `${p} ${median(xs).toFixed(2)}`).join(', ');
  console.log(`${label}: page, choose to first drawn frame: median ${inPage.length ? median(inPage).toFixed(2) : '-'} s (${list(inPage)})`
    + `${failed.length ? `, ${failed.length} failed (${[...new Set(failed)].join('; ')})` : ''}`);
  if (of) console.log(`  page phases (medians, s): ${of}`);
  console.log(`  animbin convert to glb: median ${median(command).toFixed(2)} s (${list(command)}); `
    + `ratio of medians ${inPage.length ? (median(inPage) / median(command)).toFixed(2) : '-'}x`);
}
console.log(`load average after: ${load()}`);
await browser.close();
server.close();
if (failures) process.exitCode = 1;
