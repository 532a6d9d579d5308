// Bundles app.jsx twice with esbuild (base: memoized Markdown blocks;
// head: the whole Markdown on every token) into OUT/base and OUT/head,
// each with index.html. Usage: node build.mjs OUT
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const out = process.argv[2];
if (!out) throw new Error('usage: node build.mjs OUT');
const here = path.dirname(new URL(import.meta.url).pathname);
for (const [name, render] of [['base', 'memo'], ['head', 'whole']]) {
  const dir = path.join(out, name);
  fs.mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [path.join(here, 'app.jsx')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    outfile: path.join(dir, 'app.js'),
    define: { RENDER: JSON.stringify(render), 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(here, 'index.html'), path.join(dir, 'index.html'));
}
console.log(`built base and head into ${out}`);
