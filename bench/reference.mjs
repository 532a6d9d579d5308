// The classic measurement loop a team would write around the official
// openai client (v6): start a timer, stream, stamp the first chunk and every
// later chunk. Run by probe/fidelity_test.go against the same simulator and
// load as latgate's probe. Prints one JSON object with times in ms.
import OpenAI from 'openai';

const [baseURL, model, concurrency, requests, maxTokens] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'sk-reference', maxRetries: 0, timeout: 60_000 });

async function one() {
  const t0 = performance.now();
  const stream = await client.chat.completions.create({
    model, stream: true, max_tokens: Number(maxTokens),
    messages: [{ role: 'user', content: 'Say something.' }],
  });
  let first = null, firstContent = null, last = null, prev = null;
  const gaps = [];
  for await (const chunk of stream) {
    const now = performance.now();
    if (first === null) first = now;                       // "TTFT" of the naive loop
    const content = chunk.choices?.[0]?.delta?.content;
    if (content) {
      if (firstContent === null) firstContent = now;
      if (prev !== null) gaps.push(now - prev);
      prev = now;
    }
    last = now;
  }
  return { first: first - t0, content: firstContent - t0, total: last - t0,
           meanGap: gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : null };
}

const out = { first: [], content: [], total: [], meanGap: [], errors: 0 };
let next = 0;
async function worker() {
  while (next < Number(requests)) {
    next++;
    try {
      const r = await one();
      for (const k of ['first', 'content', 'total', 'meanGap']) out[k].push(r[k]);
    } catch (e) {
      out.errors++;
    }
  }
}
const cpu0 = process.cpuUsage();
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
const cpu = process.cpuUsage(cpu0);
out.cpuMsPerStream = (cpu.user + cpu.system) / 1000 / Number(requests);
console.log(JSON.stringify(out));
