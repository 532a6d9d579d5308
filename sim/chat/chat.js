// The simulator's reference chat page (latgate sim, GET /chat): it sends
// useChat's body to the simulator's AI SDK route (POST /api/chat) and
// shows the UI message stream's text as it comes, in one of four ways:
//
//   ?render=append    append each delta as a text node (the default)
//   ?render=markdown  re-render the whole answer as Markdown on every delta
//   ?render=frame     write the answer at most once per animation frame
//   ?render=buffered  nothing until the stream ended, then the whole answer
//
// ?cost=MS spends MS of main-thread work on every update (a heavy
// renderer), ?model=NAME asks for a profile of the simulator.
//
// The page keeps stamps of its own in window.__chatStamps, on its own
// clock (performance.now()), for the accuracy tests of latgate's browser
// driver: each click (its event timeStamp), each write of the answer to
// the DOM (when, its characters) with the frame that painted it (the
// post-frame time of the animation frame after the write: a
// requestAnimationFrame callback posts a task, which runs once the frame's
// rendering ended), its MutationObserver's records, and when its
// reader got the first text delta of each answer.
(() => {
  'use strict';
  const q = new URLSearchParams(location.search);
  const render = q.get('render') || 'append';
  const cost = Number(q.get('cost') || 0);
  const model = q.get('model') || undefined;
  const stamps = { clicks: [], writes: [], mutations: [], firstText: [] };
  window.__chatStamps = stamps;

  const log = document.getElementById('log');
  const form = document.getElementById('chat');
  const box = form.elements.prompt;
  const status = document.getElementById('status');
  const chatId = 'chat_' + Math.random().toString(36).slice(2);
  const messages = [];
  let busy = false;

  new MutationObserver((records) => {
    if (stamps.mutations.length < 100000) stamps.mutations.push({ at: performance.now(), records: records.length });
  }).observe(log, { subtree: true, childList: true, characterData: true });

  // after runs f in a task after the current one: a user-blocking task
  // (Prioritized Task Scheduling), which runs before the page's network
  // reads even when they keep the main thread busy; a message without it.
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => { const f = waiting.shift(); if (f) f(); };
  const after = typeof scheduler === 'object' && typeof scheduler.postTask === 'function'
    ? (f) => { scheduler.postTask(f, { priority: 'user-blocking' }); }
    : (f) => { waiting.push(f); channel.port2.postMessage(0); };
  // painted stamps w when the next frame has been rendered; inFrame: the
  // write happened in this frame's requestAnimationFrame callback.
  function painted(w, inFrame) {
    const post = () => after(() => { w.painted = performance.now(); });
    if (inFrame) post(); else requestAnimationFrame(post);
  }
  function spin(ms) { const end = performance.now() + ms; while (performance.now() < end) { /* work */ } }
  function stamp(answer, inFrame) {
    const w = { at: performance.now(), chars: [...answer].length, painted: -1 };
    if (stamps.writes.length < 100000) stamps.writes.push(w);
    spin(cost);
    painted(w, inFrame);
  }

  // markdown is a small renderer of our own: headings, fenced code,
  // lists, paragraphs; inline code, bold, emphasis. Its input is escaped.
  function esc(s) { return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]); }
  function inline(s) {
    return esc(s).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>');
  }
  function markdown(text) {
    const out = [];
    const blocks = text.split(/\n{2,}/);
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      if (b.startsWith('```')) { out.push('<pre><code>' + esc(b.replace(/^```\w*\n?|```$/g, '')) + '</code></pre>'); continue; }
      const h = /^(#{1,6}) (.*)/.exec(b);
      if (h) { out.push('<h' + h[1].length + '>' + inline(h[2]) + '</h' + h[1].length + '>'); continue; }
      const lines = b.split('\n');
      if (lines.every((l) => /^\s*([-*]|\d+\.) /.test(l))) {
        out.push('<ul>' + lines.map((l) => '<li>' + inline(l.replace(/^\s*([-*]|\d+\.) /, '')) + '</li>').join('') + '</ul>');
        continue;
      }
      out.push('<p>' + inline(b) + '</p>');
    }
    return out.join('');
  }

  // view shows the answer in out, as ?render says.
  function view(out) {
    let answer = '', scheduled = false;
    return {
      delta(d) {
        answer += d;
        if (render === 'append') { out.appendChild(document.createTextNode(d)); stamp(answer, false); }
        if (render === 'markdown') { out.innerHTML = markdown(answer); stamp(answer, false); }
        if (render === 'frame' && !scheduled) {
          scheduled = true;
          requestAnimationFrame(() => { scheduled = false; out.textContent = answer; stamp(answer, true); });
        }
      },
      end() {
        if (render === 'buffered') { out.textContent = answer; stamp(answer, false); }
        return answer;
      },
      fail(msg) { out.textContent = (answer ? answer + '\n' : '') + '⚠ ' + msg; },
    };
  }

  function add(role) {
    const el = document.createElement('div');
    el.dataset.role = role;
    if (role === 'assistant' && render === 'markdown') el.className = 'md';
    log.appendChild(el);
    return el;
  }

  // read calls onEvent with each JSON event of an SSE body.
  async function read(body, onEvent) {
    const reader = body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        if (line.startsWith('data:') && line.slice(5).trim() !== '[DONE]') onEvent(JSON.parse(line.slice(5)));
      }
    }
  }

  async function send(text) {
    busy = true;
    status.dataset.status = 'streaming';
    status.textContent = 'streaming';
    add('user').textContent = text;
    const v = view(add('assistant'));
    messages.push({ id: 'u' + messages.length, role: 'user', parts: [{ type: 'text', text }] });
    try {
      const res = await fetch('/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: chatId, model, messages, trigger: 'submit-message' }) });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      let first = true;
      await read(res.body, (ev) => {
        if (ev.type === 'text-delta' && first && ev.delta !== '') { first = false; stamps.firstText.push(performance.now()); }
        if (ev.type === 'text-delta') v.delta(ev.delta);
        if (ev.type === 'error') throw new Error(ev.errorText);
      });
      messages.push({ id: 'a' + messages.length, role: 'assistant', parts: [{ type: 'text', text: v.end() }] });
    } catch (err) {
      v.fail(String(err.message || err));
    } finally {
      busy = false;
      requestAnimationFrame(() => { status.dataset.status = 'ready'; status.textContent = 'ready'; });
    }
  }

  form.addEventListener('click', (e) => { if (e.target.closest('button')) stamps.clicks.push(e.timeStamp); });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); stamps.clicks.push(e.timeStamp); form.requestSubmit(); }
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = box.value.trim();
    if (text === '' || busy) return;
    box.value = '';
    send(text);
  });
})();
