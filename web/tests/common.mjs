// What the browser and Node tests share: where things are, the native command's answers.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const testdata = join(root, 'testdata');
export const built = join(root, 'target/web');
// Resolved now: some tests run the command in a folder of their own.
export const animbin = process.env.ANIMBIN ? resolve(process.env.ANIMBIN) : join(root, 'target/debug/animbin');

/** Every file of testdata/ (not in its folders: poses/ is the Blender pose suite's), sorted. */
export const samples = readdirSync(testdata, { withFileTypes: true })
  .filter((e) => e.isFile() && !e.name.startsWith('.'))
  .map((e) => e.name)
  .sort();

/** Fails (under CI=true) or skips (elsewhere) when something the tests need is missing. */
export function need(what, ok) {
  if (ok) return true;
  const message = `${what} is missing`;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${message}`);
  console.log(`SKIPPED: ${message}`);
  return false;
}

export function haveBuild() {
  return need('target/web (run cargo xtask web)', existsSync(join(built, 'pkg/animbin_wasm_bg.wasm')))
    && need(`the animbin command (${animbin}; cargo build -p animbin-cli)`, existsSync(animbin));
}

/** `animbin info --json FILE` as an object, or null when the command refuses the file. */
export function nativeInfo(file) {
  try {
    return JSON.parse(execFileSync(animbin, ['info', '--json', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch {
    return null;
  }
}

/** `animbin convert FILE OUT.EXT` as bytes, or null when the command refuses. */
export function nativeConvert(file, target, extension) {
  const dir = mkdtempSync(join(tmpdir(), 'animbin-web-'));
  const name = file.split('/').pop();
  const stem = name.replace(/\.[^.]*$/, '');
  const out = join(dir, `${stem}.${extension}`);
  // The file alone, as the page and the package get it: the command would embed the texture
  // files it finds beside the input (testdata/textures/), which a browser is not given. In a
  // folder of its own, so that a same-format output is not the input itself.
  const alone = join(mkdtempSync(join(tmpdir(), 'animbin-web-input-')), name);
  copyFileSync(file, alone);
  try {
    execFileSync(animbin, ['convert', '--to', target, alone, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return readFileSync(out);
  } catch {
    return null;
  }
}
