// latgate's instrument: added to every document of the tab in an isolated
// world of its own (the page's scripts can neither see nor change it; they
// share only the DOM). The driver calls window.__latgate's methods with
// Runtime.evaluate in this world.
//
// What a frame paints: a ResizeObserver's callback runs in the rendering
// steps of a frame after every requestAnimationFrame callback and after
// style and layout, right before paint. Each frame the instrument changes
// the size of a 1-pixel element of its own (in a closed shadow root), so
// that its observer is called in every frame; there it reads the answer
// (the text of the last element `output` matches) as that frame paints
// it, and posts a task of the highest priority, which runs once the
// frame's rendering task ended: that post-frame time is when the frame was
// painted (handed to the compositor). The frame's begin time is the requestAnimationFrame
// timestamp. t0 is the timeStamp of the first trusted click (or Enter key)
// after arm, as the page's event loop dispatched it.
(() => {
  'use strict';
  const MAX_FRAMES = 200000; // about 55 minutes of frames at 60 Hz
  let s = null; // the armed turn
  let host = null, dot = null, size = 1, looping = false, current = null, observer = null;
  // after runs f in a task after the current one (the frame's rendering):
  // a user-blocking task of the Prioritized Task Scheduling API, which runs
  // before the page's own tasks of normal priority (network reads, its
  // timers and messages), so that a busy page does not delay the stamp;
  // a message where that API is missing.
  const channel = new MessageChannel();
  const queued = [];
  channel.port1.onmessage = () => { const f = queued.shift(); if (f) f(); };
  const after = typeof scheduler === 'object' && typeof scheduler.postTask === 'function'
    ? (f) => { scheduler.postTask(f, { priority: 'user-blocking' }); }
    : (f) => { queued.push(f); channel.port2.postMessage(0); };
  const mutations = new MutationObserver(() => { if (s !== null) s.dirty = true; });

  function lastMatch(sel) {
    const all = document.querySelectorAll(sel);
    return all.length ? all[all.length - 1] : null;
  }
  function textOf(el) {
    if (el === null) return '';
    const t = typeof el.innerText === 'string' ? el.innerText : el.textContent;
    return (t || '').trim();
  }
  function count(text) { let n = 0; for (const _ of text) n++; return n; }

  // probe puts the instrument's element into the document (again, when
  // the page replaced what holds it).
  function probe() {
    if (host !== null && host.isConnected) return;
    host = document.createElement('latgate-frame');
    host.setAttribute('style', 'all:initial!important;position:fixed!important;left:0!important;top:0!important;width:0!important;height:0!important;overflow:hidden!important;pointer-events:none!important;visibility:hidden!important');
    const root = host.attachShadow({ mode: 'closed' });
    dot = document.createElement('div');
    dot.setAttribute('style', 'position:absolute;width:1px;height:1px;contain:strict');
    root.appendChild(dot);
    document.documentElement.appendChild(host);
    if (observer !== null) observer.disconnect();
    observer = new ResizeObserver(painting);
    observer.observe(dot);
  }

  // onFrame runs once a frame while a turn is armed (one loop: arm does
  // not start a second one while the last turn's frame is pending).
  function onFrame(ts) {
    if (s === null) { looping = false; return; }
    requestAnimationFrame(onFrame);
    current = { b: ts, l: -1, p: -1, n: -1, d: false };
    size = size % 3 + 1;
    dot.style.width = size + 'px';
  }

  // painting runs in a frame's rendering steps, after layout: what the
  // page shows now is what this frame paints.
  function painting() {
    if (s === null || current === null) return;
    const f = current;
    current = null;
    f.l = performance.now();
    if (s.dirty) {
      s.dirty = false;
      const el = lastMatch(s.output);
      const text = textOf(el);
      const shown = el !== s.armEl || text !== s.armText ? text : '';
      if (shown !== s.shown) {
        s.shown = shown;
        s.chars = count(shown);
        f.n = s.chars;
      }
    }
    if (s.done !== '') {
      f.d = document.querySelector(s.done) !== null;
      if (!f.d && s.t0 >= 0) s.doneLeft = true;
    }
    if (s.frames.length < MAX_FRAMES) s.frames.push(f);
    if (f.n >= 0) s.last = f;
    after(() => { f.p = performance.now(); });
  }

  function onInput(e) {
    if (s === null || s.t0 >= 0 || !e.isTrusted) return;
    if (e.type === 'keydown' && e.key !== 'Enter') return;
    s.t0 = e.timeStamp;
  }

  function valid(sel) {
    try { document.querySelector(sel); return true; } catch (_) { return false; }
  }

  window.__latgate = {
    // check reports which of the selectors are not valid CSS.
    check(sels) { return sels.filter((x) => x !== '' && !valid(x)); },
    // has reports whether sel matches an element.
    has(sel) { return document.querySelector(sel) !== null; },
    // point scrolls sel's first match into view and returns where to click
    // it, or why it cannot be clicked.
    point(sel) {
      const el = document.querySelector(sel);
      if (el === null) return { error: 'missing' };
      if (el.disabled) return { error: 'disabled' };
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return { error: 'hidden' };
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const top = document.elementFromPoint(x, y);
      if (top !== null && top !== el && !el.contains(top)) return { error: 'covered', by: top.tagName.toLowerCase() };
      return { x, y };
    },
    // focus focuses sel's first match and selects what it holds, so that
    // the text typed next replaces it.
    focus(sel) {
      const el = document.querySelector(sel);
      if (el === null) return false;
      el.focus();
      if (typeof el.select === 'function') el.select();
      else if (el.isContentEditable) document.getSelection().selectAllChildren(el);
      return document.activeElement === el || el.contains(document.activeElement);
    },
    value(sel) {
      const el = document.querySelector(sel);
      if (el === null) return null;
      return typeof el.value === 'string' ? el.value : el.textContent;
    },
    // arm starts a turn: what output shows now is not the answer; frames
    // are recorded from here.
    arm(output, done) {
      probe();
      const el = lastMatch(output);
      s = { output, done, armEl: el, armText: textOf(el), shown: '', chars: 0, dirty: true, t0: -1,
        frames: [], last: null, doneLeft: false };
      mutations.disconnect();
      mutations.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      window.addEventListener('click', onInput, true);
      window.addEventListener('keydown', onInput, true);
      if (!looping) { looping = true; requestAnimationFrame(onFrame); }
      return true;
    },
    // state is what the driver needs to decide whether the turn ended.
    state() {
      if (s === null) return null;
      const f = s.frames.length ? s.frames[s.frames.length - 1] : null;
      return { now: performance.now(), t0: s.t0, chars: s.chars, frames: s.frames.length,
        matched: lastMatch(s.output) !== null,
        changed: s.last === null ? -1 : (s.last.p >= 0 ? s.last.p : s.last.l),
        done: f !== null && f.d && s.t0 >= 0, doneLeft: s.doneLeft };
    },
    // take ends the turn and returns its frames: begin times, layout
    // times (what the frame paints was read then), painted times (-1: not
    // yet), the answer's characters where a frame changed it (-1:
    // unchanged), whether done matched.
    take() {
      if (s === null) return null;
      const out = { t0: s.t0, b: [], l: [], p: [], n: [], d: [], text: s.shown.slice(0, 200) };
      for (const f of s.frames) { out.b.push(f.b); out.l.push(f.l); out.p.push(f.p); out.n.push(f.n); out.d.push(f.d); }
      window.removeEventListener('click', onInput, true);
      window.removeEventListener('keydown', onInput, true);
      mutations.disconnect();
      s = null;
      return out;
    },
    // now is the page's clock, to date a screenshot.
    now() { return performance.now(); },
    // clock pairs this document's clock with its navigation's timing.
    clock() {
      const n = performance.getEntriesByType('navigation')[0];
      return n ? { requestStart: n.requestStart, responseStart: n.responseStart, now: performance.now() } : null;
    },
  };
})();
