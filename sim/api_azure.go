package sim

import (
	"io"
	"net/http"
	"strings"
)

const apiAzure api = "azure"

func init() {
	registerAPI(simAPI{
		name: apiAzure, order: 50, at: "base_url %[2]s://%[1]s/openai/deployments/NAME",
		match: func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/openai/deployments/") && strings.HasSuffix(r.URL.Path, "/chat/completions")
		},
		key:   func(r *http.Request) string { return r.Header.Get("api-key") },
		parse: func(r *http.Request, body io.Reader) (request, error) { return parseChat(apiAzure, r, body) },
		// Azure's stream is chat completions' with its content-filter
		// frame and a role chunk first.
		encoder: func(rs response) encoder {
			c := apiOf(apiChat).encoder(rs).(*chatEnc)
			c.quirks.AzureFilterChunk, c.quirks.RoleChunk = true, true
			return c
		},
		unstreamed: true,
	})
}
