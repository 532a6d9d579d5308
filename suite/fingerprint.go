package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/latgate/latgate/apis"
)

// Fingerprints: what about a (scenario, endpoint) changes its latency,
// hashed, so that a baseline measured otherwise is not compared as if it
// were the same.

// Fingerprint hashes everything about a (scenario, endpoint) that changes
// latency: model, base URL host, messages, max_tokens, temperature,
// concurrency or rate, the API when it is not chat, and a realtime
// endpoint's audio. Described returns the parts for "what changed".
func Fingerprint(s Scenario, e Endpoint) (string, map[string]string) {
	host := e.BaseURL
	if spec, ok := apis.Lookup(e.API); ok && spec.Address.Key == apis.URL {
		host = e.URL
	}
	if u, err := url.Parse(host); err == nil {
		host = u.Host
	}
	var msgs strings.Builder
	for _, m := range s.Messages {
		fmt.Fprintf(&msgs, "%s\x00%s\x00", m.Role, m.Content)
	}
	ms := sha256.Sum256([]byte(msgs.String()))
	parts := map[string]string{
		"model":      e.Model,
		"host":       host,
		"messages":   hex.EncodeToString(ms[:8]),
		"max_tokens": strconv.Itoa(s.MaxTokens),
	}
	if s.Rate > 0 {
		parts["rate"] = strconv.FormatFloat(s.Rate, 'g', -1, 64) + "/s"
	} else {
		parts["concurrency"] = strconv.Itoa(s.Concurrency)
	}
	if e.API != "" && e.API != apis.Default().Name {
		parts["api"] = e.API
	}
	if e.Deployment != "" {
		parts["deployment"] = e.Deployment
	}
	if s.Cache == "cold" {
		parts["cache"] = "cold"
	}
	if e.Audio {
		parts["audio"] = "true"
	}
	if s.Temperature != nil {
		parts["temperature"] = strconv.FormatFloat(*s.Temperature, 'g', -1, 64)
	}
	sessionParts(s, parts)
	workloadParts(s, parts)
	phaseParts(s, parts)
	browserParts(e, parts)
	keys := make([]string, 0, len(parts))
	for k := range parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, parts[k])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), parts
}

// sessionParts adds what changes a session's latency to its fingerprint:
// each tool (its name, latency and a hash of its schema and result), the
// turns (how many, and a hash of what they say) and max_steps.
func sessionParts(s Scenario, parts map[string]string) {
	if !s.IsSession() {
		return
	}
	var tools []string
	for _, t := range s.Tools {
		h := sha256.Sum256([]byte(t.Description + "\x00" + string(t.Parameters) + "\x00" + t.Result))
		tools = append(tools, fmt.Sprintf("%s@%s#%s", t.Name, t.Latency, hex.EncodeToString(h[:4])))
	}
	if len(tools) > 0 {
		parts["tools"] = strings.Join(tools, ",")
	}
	if len(s.Turns) > 0 {
		h := sha256.Sum256([]byte(strings.Join(s.Turns, "\x00")))
		parts["turns"] = strconv.Itoa(len(s.Turns))
		parts["turns_text"] = hex.EncodeToString(h[:8])
	}
	parts["max_steps"] = strconv.Itoa(s.MaxSteps)
}

// workloadParts adds a workload's trace and draw to its fingerprint: the
// trace as written, its format, the sample, the timing and the block
// size (the trace's own bytes are the draw's seed, in the results file).
func workloadParts(s Scenario, parts map[string]string) {
	w := s.Workload
	if w == nil {
		return
	}
	// Words, as a configuration change shows them: "traces/chat.jsonl
	// (mooncake), sample 400, replay at 20×, blocks of 512 tokens".
	format := w.Format
	if format == "" {
		format = "format detected"
	}
	timing := "at the scenario's concurrency"
	if w.Timing == TimingReplay {
		timing = fmt.Sprintf("replay at %g×", w.Speedup)
	}
	parts["workload"] = fmt.Sprintf("%s (%s), sample %d, %s, blocks of %d tokens", w.Trace, format, w.Sample, timing, w.BlockTokens)
	if w.ExactOutput {
		parts["workload"] += ", exact output"
	}
}

// phaseParts adds a phase's faults to its fingerprint: what each injects
// where, on what share.
func phaseParts(s Scenario, parts map[string]string) {
	if s.Phase == nil {
		return
	}
	var fs []string
	for _, f := range s.Phase.Faults {
		fs = append(fs, fmt.Sprintf("%s:%s@%g/%s/%d/%d/%s", f.Upstream, f.Kind, f.Share, f.Delay, f.After, f.Status, f.RetryAfter))
	}
	parts["faults"] = strings.Join(fs, ",")
}
