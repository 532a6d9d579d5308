package sim

import (
	"encoding/json"
)

// kind is what an event carries.
type kind int

const (
	kindContent    kind = iota
	kindReasoning       // reasoning text
	kindTool            // a piece of a tool call's arguments
	kindToolResult      // a tool's output (the AI SDK route runs its tools)
	kindStep            // the end of a step and the start of the next (AI SDK)
)

// counts are the usage numbers of a finished stream, and the engine's
// own times of it (nil when not known).
type counts struct {
	prompt, output, cached, reasoning int
	eng                               *engineTimes
}

// encoder renders one API's stream: the events before the first output
// (the preamble every client must skip), each event, the end with usage,
// and a mid-stream error.
type encoder interface {
	preamble(sw *sseWriter)
	output(sw *sseWriter, e outputEvent)
	end(sw *sseWriter, finish string, u counts, includeUsage bool)
	fail(sw *sseWriter)
}

func jsonOf(v any) []byte { b, _ := json.Marshal(v); return b }

// argsObject is a call's arguments as a JSON object; a piece that is not
// one (the ToolCall quirk streams words) is {"q": piece}.
func argsObject(args string) any {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil || m == nil {
		return map[string]any{"q": args}
	}
	return json.RawMessage(args)
}
