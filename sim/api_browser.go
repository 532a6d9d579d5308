package sim

import (
	_ "embed"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// apiBrowser is the reference chat page for api: browser (GET /chat, its
// script at /chat.js): it reads the simulator's own AI SDK route as useChat
// does and renders the answer as ?render says (append, markdown, frame,
// buffered), spending ?cost=MS of main-thread work on every update;
// ?model=NAME picks a profile. See docs/simulator.md.
const apiBrowser api = "browser"

func init() {
	registerAPI(simAPI{
		name: apiBrowser, order: 90, about: "a reference chat page on the AI SDK route, ?render=append|markdown|frame|buffered&cost=MS",
		at: "url %[2]s://%[1]s/chat", match: isChatPage,
		serve: func(_ *Server, w http.ResponseWriter, r *http.Request) { chatPage(w, r) },
	})
}

var (
	//go:embed chat/chat.html
	chatHTML []byte
	//go:embed chat/chat.js
	chatJS []byte
)

// ChatRenders are the page's ways to show the answer.
var ChatRenders = []string{"append", "markdown", "frame", "buffered"}

// maxChatCost bounds ?cost: main-thread work per update, in milliseconds.
const maxChatCost = 10000

var chatModel = regexp.MustCompile(`^[A-Za-z0-9._-]{0,64}$`)

// isChatPage reports whether r asks for the chat page or its script.
func isChatPage(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) && (r.URL.Path == "/chat" || r.URL.Path == "/chat.js")
}

// chatPage serves the page, after checking its query: a wrong value is a
// 400 that says what is valid, never a page that silently renders another
// way.
func chatPage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.URL.Path == "/chat.js" {
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write(chatJS)
		return
	}
	if err := checkChatQuery(r); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
	_, _ = w.Write(chatHTML)
}

func checkChatQuery(r *http.Request) error {
	q := r.URL.Query()
	if v := q.Get("render"); v != "" && !slices.Contains(ChatRenders, v) {
		return fmt.Errorf("render=%s: one of %s", v, strings.Join(ChatRenders, ", "))
	}
	if v := q.Get("cost"); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 0 || n > maxChatCost {
			return fmt.Errorf("cost=%s: milliseconds of main-thread work per update, a whole number from 0 to %d", v, maxChatCost)
		}
	}
	if v := q.Get("model"); !chatModel.MatchString(v) {
		return fmt.Errorf("model=%s: a profile's name (letters, digits, '.', '_', '-')", v)
	}
	return nil
}
