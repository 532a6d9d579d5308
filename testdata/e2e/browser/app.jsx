// A chat page on the AI SDK's own React hook (useChat from @ai-sdk/react)
// with a common Markdown renderer (marked) and syntax highlighter
// (highlight.js), for latgate's browser end-to-end test (make e2e-browser,
// scripts/e2e-browser.sh). build.mjs bundles it twice with esbuild:
//
//   base: the answer's Markdown split into blocks (marked.lexer), each
//         block rendered once and memoized, as the AI SDK's cookbook
//         "Markdown chatbot with memoization" does: a token re-renders
//         only the last block;
//   head: the whole Markdown of every message parsed and highlighted again
//         on every token (the pull request that "just renders Markdown").
//
// The page sends its own query to the route (/api/chat?answer=markdown
// asks the mock model for a long Markdown answer).
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { marked } from 'marked';
import hljs from 'highlight.js/lib/common';
import { memo, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';

marked.use({
  renderer: {
    code({ text, lang }) {
      const h = lang && hljs.getLanguage(lang) ? hljs.highlight(text, { language: lang }) : hljs.highlightAuto(text);
      return '<pre><code class="hljs">' + h.value + '</code></pre>';
    },
  },
});

const html = (md) => ({ __html: marked.parse(md) });

const Block = memo(function Block({ md }) {
  return <div dangerouslySetInnerHTML={html(md)} />;
});

function Memoized({ text }) {
  const blocks = useMemo(() => marked.lexer(text).map((t) => t.raw), [text]);
  return blocks.map((md, i) => <Block key={i} md={md} />);
}

function Whole({ text }) {
  return <div dangerouslySetInnerHTML={html(text)} />;
}

// RENDER is set by the build: "memo" (base) or "whole" (head).
const Markdown = RENDER === 'memo' ? Memoized : Whole;

const transport = new DefaultChatTransport({ api: '/api/chat' + location.search });

function App() {
  const { messages, sendMessage, status } = useChat({ transport });
  const [input, setInput] = useState('');
  const submit = (e) => {
    e.preventDefault();
    if (input.trim() === '' || status !== 'ready') return;
    sendMessage({ text: input });
    setInput('');
  };
  return (
    <main>
      {messages.map((m) => (
        <div key={m.id} data-role={m.role}>
          {m.parts.map((p, i) => (p.type !== 'text' ? null
            : m.role === 'assistant' ? <Markdown key={i} text={p.text} /> : <p key={i}>{p.text}</p>))}
        </div>
      ))}
      <form onSubmit={submit}>
        <textarea value={input} onChange={(e) => setInput(e.target.value)} aria-label="prompt" />
        <button type="submit" disabled={status !== 'ready'}>Send</button>
      </form>
      <div data-status={status}>{status}</div>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
