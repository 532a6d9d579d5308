// make lexicon-check: every word of latgate's lexicon (workload/synth.go)
// is one token after a space in cl100k_base and o200k_base, and a run of
// them is exactly a token a word. Exits 1 when one is not.
import fs from 'fs';

const src = fs.readFileSync(process.argv[2] || 'workload/synth.go', 'utf8');
const m = src.match(/var lexicon = strings\.Fields\(`([^`]*)`\)/);
if (!m) { console.error('lexicon-check: no lexicon in workload/synth.go'); process.exit(2); }
const words = m[1].split(/\s+/).filter(Boolean);
let bad = 0;
for (const enc of ['cl100k_base', 'o200k_base']) {
  const { encode } = await import(`gpt-tokenizer/encoding/${enc}`);
  const multi = words.filter((w) => encode(' ' + w).length !== 1);
  const run = encode(words.join(' ')).length;
  console.log(`${enc}: ${words.length} words, ${multi.length} not one token after a space${multi.length ? ' (' + multi.join(', ') + ')' : ''}; all ${words.length} in a row: ${run} tokens`);
  // The first word has no space before it: it may be two tokens.
  if (multi.length > 0 || run > words.length + 1) bad++;
}
process.exit(bad ? 1 : 0);
