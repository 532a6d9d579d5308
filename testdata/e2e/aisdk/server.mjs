// An AI SDK chat route for latgate's end-to-end test (make e2e-aisdk):
// streamText(...).toUIMessageStreamResponse() on POST /api/chat, what a
// Next.js chat app serves, with the ai package's mock model for known
// timing. Two behaviours, as a model would choose them from the prompt:
//
//   - text: the answer streams after DELAY ms, one text delta every CHUNK ms;
//   - agent (the user asks about an order): step 1 streams a tool call
//     (DELAY ms, then its argument pieces CHUNK ms apart), the server runs
//     lookup_order (TOOL ms), step 2 streams the answer like text.
//
// ?tool_ms=N (or --tool-ms) sets the tool's time, ?delay_ms and ?chunk_ms
// the model's; ?answer=markdown makes the text answer a long Markdown
// document (about 7,400 characters: headings, lists, code blocks) in
// deltas of a few words. With --static DIR the server also serves DIR's files on
// GET (a chat page beside its route: make e2e-browser). Every response's own timestamps (performance.now(), ms from
// the request's arrival) go to the --log file, one JSON line per request:
// each UI message stream event as it was written to the socket, each model
// chunk as the mock emitted it, the tool's start and end.
//
// Usage: node server.mjs --port 0 --log stamps.jsonl   (prints its URL)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { streamText, convertToModelMessages, isStepCount, jsonSchema, tool, simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const { values: opt } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    log: { type: 'string' },
    'tool-ms': { type: 'string', default: '150' },
    'delay-ms': { type: 'string', default: '300' },
    'chunk-ms': { type: 'string', default: '20' },
    static: { type: 'string' },
  },
});
const log = opt.log ? fs.openSync(opt.log, 'a') : null;
const ANSWER = ['Order', ' 42', ' shipped', ' today', ' and', ' arrives', ' in', ' two', ' days', '.'];
const TOOL_ARGS = ['{"id"', ':', '"42"}'];
// MARKDOWN is the long answer: sections of prose, a list and code (one
// block without its language, as models often write them), in deltas of
// up to four words.
const MARKDOWN = (() => {
  const section = (n) => `## Step ${n}: measure before you change\n\n` +
    `Latency budgets hold when every stage is measured where the user sees it. The network, the queue, the first token, ` +
    `the pace of generation and the page itself each take their share, and a change to any of them shows in the total.\n\n` +
    `- keep the **first token** under the budget\n- stream every delta as it comes\n- render only what changed\n\n` +
    '```\n' + `export function render${n}(messages, el) {\n  for (const m of messages) {\n    const p = document.createElement('p');\n` +
    `    p.textContent = m.parts.map((x) => x.text).join('');\n    el.appendChild(p);\n  }\n  return el.childElementCount;\n}\n` + '```\n\n' +
    '```go\n' + `func Budget${n}(ttft, itl time.Duration, tokens int) time.Duration {\n\treturn ttft + time.Duration(tokens-1)*itl\n}\n` + '```\n\n';
  const text = '# A long answer\n\n' + [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(section).join('');
  return text.match(/(?:\S+\s*){1,4}/g);
})();
const usage = (input, output) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

// timed streams a model call: head at once, body through
// simulateReadableStream (delayMs before the first part, chunkMs before
// each later one), tail at once when the body is done. Each part is
// stamped as the mock emits it.
function timed(stamp, head, body, tail, delayMs, chunkMs) {
  const sim = simulateReadableStream({ chunks: body, initialDelayInMs: delayMs, chunkDelayInMs: chunkMs }).getReader();
  return new ReadableStream({
    start(c) {
      for (const p of head) { stamp('model', p.type); c.enqueue(p); }
    },
    async pull(c) {
      const { done, value } = await sim.read();
      if (!done) { stamp('model', value.type); c.enqueue(value); return; }
      for (const p of tail) { stamp('model', p.type); c.enqueue(p); }
      c.close();
    },
  });
}

// model is the mock for one request: it calls lookup_order when the user
// asks about an order and the conversation holds no tool result yet, and
// otherwise answers in text.
function model(stamp, delayMs, chunkMs, answer) {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const last = prompt[prompt.length - 1];
      const user = prompt.filter((m) => m.role === 'user').at(-1);
      const asks = JSON.stringify(user?.content ?? '').toLowerCase().includes('order');
      if (asks && last.role !== 'tool') {
        const id = 'call_1';
        return {
          stream: timed(stamp,
            [{ type: 'stream-start', warnings: [] }],
            [{ type: 'tool-input-start', id, toolName: 'lookup_order' },
              ...TOOL_ARGS.map((delta) => ({ type: 'tool-input-delta', id, delta }))],
            [{ type: 'tool-input-end', id },
              { type: 'tool-call', toolCallId: id, toolName: 'lookup_order', input: TOOL_ARGS.join('') },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(12, TOOL_ARGS.length) }],
            delayMs, chunkMs),
        };
      }
      return {
        stream: timed(stamp,
          [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }],
          answer.map((delta) => ({ type: 'text-delta', id: 't1', delta })),
          [{ type: 'text-end', id: 't1' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(20, ANSWER.length) }],
          delayMs, chunkMs),
      };
    },
  });
}

async function chat(req, res, t0, stamps) {
  const stamp = (kind, type) => stamps.push({ t: performance.now() - t0, kind, type });
  const url = new URL(req.url, 'http://localhost');
  const num = (k, d) => Number(url.searchParams.get(k) ?? d);
  const toolMs = num('tool_ms', opt['tool-ms']);
  let body = '';
  for await (const chunk of req) body += chunk;
  const { messages } = JSON.parse(body);
  const result = streamText({
    model: model(stamp, num('delay_ms', opt['delay-ms']), num('chunk_ms', opt['chunk-ms']),
      url.searchParams.get('answer') === 'markdown' ? MARKDOWN : ANSWER),
    messages: await convertToModelMessages(messages),
    tools: {
      lookup_order: tool({
        description: 'Look an order up',
        inputSchema: jsonSchema({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }),
        execute: async ({ id }) => {
          stamp('tool', 'start');
          await new Promise((r) => setTimeout(r, toolMs));
          stamp('tool', 'end');
          return { id, status: 'shipped', eta: '2 days' };
        },
      }),
    },
    stopWhen: isStepCount(3),
  });
  const response = result.toUIMessageStreamResponse();
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body.getReader();
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Stamp each SSE event of the chunk as it is handed to the socket.
    for (const ev of dec.decode(value, { stream: true }).split('\n\n')) {
      const data = ev.startsWith('data: ') ? ev.slice(6) : null;
      if (data === null) continue;
      stamp('ui', data === '[DONE]' ? '[DONE]' : JSON.parse(data).type);
    }
    res.write(value);
  }
  res.end();
  stamp('http', 'end');
}

// serveStatic answers a GET with a file of --static (index.html for a
// folder); nothing outside it.
function serveStatic(req, res) {
  const root = path.resolve(opt.static);
  let file = path.resolve(root, '.' + decodeURIComponent(new URL(req.url, 'http://localhost').pathname));
  if (file !== root && !file.startsWith(root + path.sep)) { res.writeHead(404).end(); return; }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) { res.writeHead(404).end(); return; }
  const type = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' }[path.extname(file)] || 'application/octet-stream';
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  fs.createReadStream(file).pipe(res);
}

const server = http.createServer((req, res) => {
  const t0 = performance.now();
  const stamps = [];
  if (req.method === 'GET' && opt.static) {
    serveStatic(req, res);
    return;
  }
  if (req.method !== 'POST' || !req.url.startsWith('/api/chat')) {
    res.writeHead(404).end();
    return;
  }
  chat(req, res, t0, stamps).catch((err) => {
    stamps.push({ t: performance.now() - t0, kind: 'error', type: String(err) });
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }).finally(() => {
    if (log !== null) fs.writeSync(log, JSON.stringify({ url: req.url, stamps }) + '\n');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(opt.port), '127.0.0.1', () => {
  console.log(`latgate-aisdk listening on http://127.0.0.1:${server.address().port}/api/chat`);
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => { server.close(); server.closeAllConnections(); process.exit(0); });
