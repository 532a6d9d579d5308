package sim

import (
	"io"
	"net/http"
)

// apiCustom is api custom as the simulator serves it: Ollama's native
// route (api_ollama.go), read by a stream spec of its NDJSON lines. It is
// registered for where a suite finds it (Where, Routes); its requests are
// routed as Ollama's.
const apiCustom api = "custom"

func init() {
	registerAPI(simAPI{
		name: apiCustom, order: 60, about: "Ollama's NDJSON read by a stream spec", at: "url %[2]s://%[1]s/api/chat",
		parse:   func(_ *http.Request, body io.Reader) (request, error) { return parseLocalChat(body) },
		encoder: func(rs response) encoder { return &ollamaEnc{model: rs.q.model} },
	})
}
