package probe

import "github.com/latgate/latgate/internal/redact"

// decoder turns one wire event into a classified event: which kind of
// output it carries and how much, token usage, the end of the answer or of
// the stream, or the provider's error. It does not stamp times or decide
// whether a request is ok (derive does). Each API's file (api_NAME.go)
// holds its decoder, reached through its description's wire. A decoder
// may keep state across the events of one stream (a fresh one is
// made per request); an error means the event is malformed.
type decoder interface {
	decode(f frame) (event, error)
}

// wire is how one API streams: its framing, its decoder, and how a proper
// stream ends (for the message of a truncated one).
type wire struct {
	framing    framing
	newDecoder func() decoder
	ends       string
	eofEnds    bool // EOF is a proper end (the API has no end-of-stream event)
}

// hinter is a decoder that can say why a stream had no output (e.g. a
// JSON pointer that matched nothing), or "": what it quotes of the
// server's events has the secrets of hide hidden before it is cut.
type hinter interface {
	hint(hide *redact.Set) string
}
