package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/internal/didyoumean"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// withModels turns a diagnosis that may be an unknown model into one, when
// the server lists the models it serves and the endpoint's is not among
// them; else it returns d.
func withModels(ctx context.Context, client *http.Client, ep suite.Endpoint, d Diagnosis) Diagnosis {
	if !d.models || ep.Model == "" {
		return d
	}
	list, ok := servedModels(ctx, client, ep)
	if !ok || serves(list, ep.Model) {
		return d
	}
	d.Finding, d.models = vocab.UnknownModel, false
	d.Says = fmt.Sprintf("the server does not serve model %q; it lists %s: set model to one of them", ep.Model, listed(list))
	names := make([]string, len(list)) // as a suite names them: Ollama's model:latest is model
	for i, m := range list {
		names[i] = strings.TrimSuffix(m, ":latest")
	}
	if near := didyoumean.Suggest(ep.Model, names); near != "" {
		d.Says += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return d
}

// servedModels asks the server for its list of models (GET base_url +
// the API's models path, with the endpoint's key and headers; no redirect
// followed, 1 MiB at most). ok is false when it has none to give.
func servedModels(ctx context.Context, client *http.Client, ep suite.Endpoint) ([]string, bool) {
	spec, _ := apis.Lookup(ep.API)
	if spec.Address.Models == "" || ep.BaseURL == "" {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ep.BaseURL+spec.Address.Models, nil)
	if err != nil {
		return nil, false
	}
	for k, v := range ep.Headers {
		req.Header.Set(k, v)
	}
	if ep.APIKey != "" && spec.Auth.Header != "" {
		req.Header.Set(spec.Auth.Header, spec.Auth.Value(ep.APIKey))
	}
	resp, err := noRedirects(client).Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, false
	}
	var body struct {
		Data   []struct{ ID string }   `json:"data"`   // OpenAI's, Anthropic's
		Models []struct{ Name string } `json:"models"` // Gemini's, Ollama's
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&body) != nil {
		return nil, false
	}
	var list []string
	for _, m := range body.Data {
		list = append(list, m.ID)
	}
	for _, m := range body.Models {
		list = append(list, strings.TrimPrefix(m.Name, "models/"))
	}
	return list, len(list) > 0
}

// serves reports whether list holds model (Ollama's model:latest too).
func serves(list []string, model string) bool {
	for _, m := range list {
		if m == model || m == model+":latest" {
			return true
		}
	}
	return false
}

// listed is the first ten models of a list, and how many more.
func listed(list []string) string {
	const most = 10
	quoted := make([]string, 0, most)
	for _, m := range list[:min(len(list), most)] {
		// Marked where cut (redact.Cut): a server's name is hidden after
		// (the diagnosis is), and the piece of a key the cut leaves
		// before the mark with it.
		quoted = append(quoted, fmt.Sprintf("%q", redact.Cut(m, 80)))
	}
	s := strings.Join(quoted, ", ")
	if len(list) > most {
		s += fmt.Sprintf(" and %d more", len(list)-most)
	}
	return s
}

// noRedirects is client following no redirect: a diagnosis never sends a
// key on.
func noRedirects(client *http.Client) *http.Client {
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}
