// The measurement loop a team would write around the official openai
// client's Realtime WebSocket (v6, openai/realtime/websocket): one
// connection per worker, opened and warmed first; then per request start
// a timer, send session.update, conversation.item.create and
// response.create (the events latgate sends), stamp the first
// response.output_text.delta and every later one, stop at response.done.
// Run by probe/fidelity_realtime_test.go against the same simulator (over
// TLS: the client always connects with wss://) and load as latgate's
// probe. Prints one JSON object with times in ms.
import OpenAI from 'openai';
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket';
import { WebSocket } from 'ws';

// Node 20 has no WebSocket of its own: the client uses the ws package's.
globalThis.WebSocket ??= WebSocket;

const [baseURL, model, concurrency, requests, maxTokens] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'sk-reference' });

function open() {
  return new Promise((resolve, reject) => {
    const rt = new OpenAIRealtimeWebSocket({ model }, client);
    const fail = (e) => reject(e);
    rt.on('error', fail);
    rt.on('session.created', () => { rt.off('error', fail); resolve(rt); });
  });
}

function one(rt) {
  return new Promise((resolve, reject) => {
    let t0 = null, first = null, prev = null, stamp = null;
    const gaps = [];
    const delta = (ev) => {
      const now = performance.now();
      if (first === null) {
        first = now;
        stamp = ev.x_sim_first_output_unix_ns ?? null;
      } else {
        gaps.push(now - prev);
      }
      prev = now;
    };
    const off = () => { rt.off('response.output_text.delta', delta); rt.off('response.done', done); rt.off('error', fail); };
    const done = () => {
      const now = performance.now();
      off();
      // The server's stamp of its first delta, against this process's
      // clock: both read the machine's wall clock.
      const truth = stamp === null ? null : Number(stamp) / 1e6 - (performance.timeOrigin + t0);
      resolve({ first: first - t0, total: now - t0, own: truth === null ? null : first - t0 - truth,
                meanGap: gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : null });
    };
    const fail = (e) => { off(); reject(e); };
    rt.on('response.output_text.delta', delta);
    rt.on('response.done', done);
    rt.on('error', fail);
    t0 = performance.now();
    rt.send({ type: 'session.update', session: { type: 'realtime', instructions: '', output_modalities: ['text'] } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say something.' }] } });
    rt.send({ type: 'response.create', response: { max_output_tokens: Number(maxTokens) } });
  });
}

const out = { first: [], total: [], own: [], meanGap: [], errors: 0 };
const sockets = await Promise.all(Array.from({ length: Number(concurrency) }, open));
await Promise.all(sockets.map(one)); // warm every connection
let next = 0;
async function worker(rt) {
  while (next < Number(requests)) {
    next++;
    try {
      const r = await one(rt);
      for (const k of ['first', 'total', 'own', 'meanGap']) if (r[k] !== null) out[k].push(r[k]);
    } catch (e) {
      out.errors++;
    }
  }
}
const cpu0 = process.cpuUsage();
await Promise.all(sockets.map(worker));
const cpu = process.cpuUsage(cpu0);
out.cpuMsPerStream = (cpu.user + cpu.system) / 1000 / Number(requests);
for (const rt of sockets) rt.close();
console.log(JSON.stringify(out));
