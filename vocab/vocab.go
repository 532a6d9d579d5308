// Package vocab is latgate's vocabulary: the names every stage shares —
// metrics, statistics, check statuses, the sides of a comparison, why a run
// stopped and why a check has the status it has. Each is a type, so the
// compiler checks every use, and each value is spelled once, here, as it
// appears in latgate's files (docs/formats.md).
//
// The package holds names and the few facts that belong to a name (a rate
// is a fraction, a quantile's level, how many requests a statistic needs);
// it imports nothing of latgate and decides nothing. Words for people are
// the renderers' (package report).
package vocab

import "math"

// Metric names a compared per-request value (a latency in milliseconds) or
// a per-run rate (a fraction).
type Metric string

// Latency metrics (docs/metrics.md).
const (
	TTFT      Metric = "ttft"
	TTFC      Metric = "ttfc"
	ITL       Metric = "itl"
	TPOT      Metric = "tpot"
	Total     Metric = "total"
	Perceived Metric = "perceived"
	// Client is what a chat page added in the browser (api browser): its
	// first painted text − the first text of its stream on the wire.
	Client Metric = "client"
)

// Session metrics: a scenario with tools or turns is a session of several
// dependent model calls (steps), measured end to end (docs/metrics.md).
const (
	// FirstToolCall is the first step's first tool-call delta, from the
	// session's send.
	FirstToolCall Metric = "first_tool_call"
	// Answer is the first visible token of the final answer, from the
	// session's send: every step and tool before it included.
	Answer Metric = "answer"
	// Session is the send of the first step to the end of the final
	// answer, tool time included.
	Session Metric = "session"
	// StepCount is the number of model calls of a session (compared by
	// its mean: more steps for the same task is a regression).
	StepCount Metric = "step_count"
)

// Server stages: what the server reported of its own time on a request
// (docs/metrics.md, "The server's own time"), and what latgate derives from
// it. They exist only where the server reports them, and are compared and
// budgeted only where it does.
const (
	// Queue is the server's wait before its engine worked on the request.
	Queue Metric = "queue"
	// Prefill is the server's prompt processing, to the first token.
	Prefill Metric = "prefill"
	// Decode is the server's first token to its last.
	Decode Metric = "decode"
	// Outside is the part of the TTFT outside the engine: the TTFT less
	// the queue and the prefill (network, proxies, the framework).
	Outside Metric = "outside"
)

// What users feel when things start cold or fail (docs/metrics.md, "Cold
// starts and failover"): a scenario's cold samples (cold: {idle, samples},
// the first request after each idle period) are left out of every other
// per-request metric of their run, so that its warm statistics stay warm.
const (
	// ColdTTFT is a cold sample's time to first token.
	ColdTTFT Metric = "cold_ttft"
	// ColdTotal is a cold sample's time to the end of its response.
	ColdTotal Metric = "cold_total"
	// Failover is, of a request an upstream faulted and another then
	// served, its arrival at the faulted upstream to its arrival at the
	// one that served it.
	Failover Metric = "failover"
)

// Rates: fractions of a run's requests (or of its prompt tokens).
const (
	// Errors is the share of requests that failed.
	Errors Metric = "errors"
	// Goodput is the share of requests that succeeded and met every
	// per-request objective.
	Goodput Metric = "goodput"
	// CacheHitRate is the share of prompt tokens served from the server's
	// prompt cache.
	CacheHitRate Metric = "cache_hit_rate"
)

// Latencies are the latency metrics in check order.
var Latencies = []Metric{TTFT, TTFC, ITL, TPOT, Total, Perceived, Client, FirstToolCall, Answer, Session, Queue, Prefill, Decode, Outside, ColdTTFT, ColdTotal, Failover}

// PerRequest are the metrics with one value per request (per session), in
// check order: the latencies and the step count.
var PerRequest = append(append([]Metric{}, Latencies...), StepCount)

// Rates are the rate metrics in check order.
var Rates = []Metric{Errors, Goodput, CacheHitRate}

// IsRate reports whether the metric's values are fractions, not
// milliseconds.
func (m Metric) IsRate() bool { return m == Errors || m == Goodput || m == CacheHitRate }

// HigherIsBetter reports whether a drop of the metric is the regression
// (and a budget on it a floor).
func (m Metric) HigherIsBetter() bool { return m == Goodput || m == CacheHitRate }

// Server reports whether the metric is one of the server's stages: the
// server's own report (or derived from it), not latgate's measurement.
func (m Metric) Server() bool { return m == Queue || m == Prefill || m == Decode || m == Outside }

// IsCount reports whether the metric counts something (steps), neither a
// latency nor a rate.
func (m Metric) IsCount() bool { return m == StepCount }

// Stats are the statistics checked of the metric: p50, p95, p99 and mean
// of a latency, the mean of a count, the rate of a rate (the minimum of
// the cache hit rate).
func (m Metric) Stats() []Stat {
	switch {
	case m == CacheHitRate:
		return []Stat{Min}
	case m.IsRate():
		return []Stat{Rate}
	case m.IsCount():
		return []Stat{Mean}
	}
	return LatencyStats
}

// PerEvent reports whether the metric is measured per output event or
// token (inter-token, time per output token) rather than per request.
func (m Metric) PerEvent() bool { return m == ITL || m == TPOT }

// Stat names a statistic of a metric.
type Stat string

// Statistics.
const (
	P50  Stat = "p50"
	P95  Stat = "p95"
	P99  Stat = "p99"
	Mean Stat = "mean"
	// Rate is the one statistic of a rate metric.
	Rate Stat = "rate"
	// Min is a floor on a rate (cache_hit_rate).
	Min Stat = "min"
)

// LatencyStats are the statistics of a latency metric in check order.
var LatencyStats = []Stat{P50, P95, P99, Mean}

// Quantile is the quantile level of a percentile statistic (0.95 for p95);
// ok is false for the others.
func (s Stat) Quantile() (q float64, ok bool) {
	switch s {
	case P50:
		return 0.5, true
	case P95:
		return 0.95, true
	case P99:
		return 0.99, true
	}
	return 0, false
}

// MinN is the number of successful requests per side a statistic needs to
// be tested: at least 10, two expected observations above a quantile for
// p95 (40), five for p99 (500); the mean needs as many as the median.
func (s Stat) MinN() int {
	q, ok := s.Quantile()
	if !ok {
		q = 0.5
	}
	return MinN(q)
}

// MinN is the number of requests per side needed to test the q-quantile:
// at least 10, two expected observations above it for q ≤ 0.95 and five
// above it beyond. With fewer, the tail count is so discrete that its
// permutation distribution has a heavy right tail (docs/statistics.md).
func MinN(q float64) int {
	k := 2.0
	if q > 0.95 {
		k = 5
	}
	return max(10, int(math.Ceil(k/(1-q)-1e-9)))
}

// Status is the outcome of one check.
type Status string

// Statuses of a check. A comparison's check ends in one of regression,
// improvement, within_tolerance, no_regression_shown, not_tested,
// inconclusive or over_budget: each says what the data showed, no more.
const (
	// Regression: worse beyond the tolerance and the minimum delta, and
	// significant after the suite-wide correction.
	Regression Status = "regression"
	// Improvement: the mirror image.
	Improvement Status = "improvement"
	// WithinTolerance: the change's interval lies inside the tolerance (its
	// upper end within the tolerance or the minimum delta): the data show
	// that the check did not regress beyond it (bounded).
	WithinTolerance Status = "within_tolerance"
	// NoRegressionShown: not significant, but the interval still reaches
	// beyond the tolerance: the data neither show a regression nor rule
	// one out (the check says how many requests would bound it).
	NoRegressionShown Status = "no_regression_shown"
	// NotTested: too few requests for this statistic, or a run whose
	// most requests could not catch a regression of twice the tolerance
	// (the check says how many it needs); a regression it shows anyway
	// is still a regression.
	NotTested Status = "not_tested"
	// Inconclusive: worse beyond the thresholds and significant on its own,
	// but not after the suite's correction (or a regression that a fresh
	// run did not confirm): the one case a rerun or more requests would
	// decide.
	Inconclusive Status = "inconclusive"
	// OverBudget: the current statistic is beyond its absolute budget.
	OverBudget Status = "over_budget"
	// OK: a check with nothing to compare, within its budget or floor (the
	// prompt-cache hit rate, a capacity level that holds).
	OK Status = "ok"
	// NoBaseline: nothing to compare with (a new scenario).
	NoBaseline Status = "no_baseline"
)

// Statuses lists every status, in the order the configuration documents
// them.
var Statuses = []Status{Regression, Improvement, WithinTolerance, NoRegressionShown, NotTested, Inconclusive, OverBudget, OK, NoBaseline}

// Verdict is a comparison's outcome: the gate passes or fails.
type Verdict string

// Verdicts.
const (
	Pass Verdict = "pass"
	Fail Verdict = "fail"
	// NoVerdict is the Action's verdict output when the run could not
	// reach one (an incomplete run, an error).
	NoVerdict Verdict = "error"
)

// Side is one side of a comparison: the base (a stored baseline, or the
// base variant measured in the same job) or the head (the current run: the
// pull request). The verdict format calls them "baseline" and "current".
type Side string

// The two sides; an unpaired run has the empty Side.
const (
	Base Side = "base"
	Head Side = "head"
)

// Stop is why a run, or one scenario of it, stopped measuring.
type Stop string

// Why a run stopped before its plan was done.
const (
	// Interrupted: Ctrl-C or SIGTERM.
	Interrupted Stop = "interrupted"
	// Capped: a run-wide cap (requests, output tokens, cost) was reached.
	Capped Stop = "capped"
	// FailedFast: requests kept failing in a way every further one would
	// (authentication, not found, a refused connection, a stream that cannot
	// be read as configured).
	FailedFast Stop = "fail_fast"
)

// Why an adaptive scenario stopped (requests: {min, max}).
const (
	// Decided: its checks were decided at a look before max.
	Decided Stop = "decided"
	// MaxReached: it ran to max (open at every look, or nothing to compare
	// with while measuring).
	MaxReached Stop = "max_reached"
)

// Reason says why a check has its status when the status alone does not:
// a check that could not be tested, or a change without significance.
type Reason string

// Reasons of a check.
const (
	// TooFew: fewer successful requests per side than the statistic needs.
	TooFew Reason = "too_few"
	// TooFewCurrent: the current run has fewer successful requests than
	// the statistic needs (a history comparison, where the baseline side is
	// several runs).
	TooFewCurrent Reason = "too_few_current"
	// NoRequests: one side has no requests at all.
	NoRequests Reason = "no_requests"
	// NoPromptTokens: the server reported no prompt tokens (no cache rate).
	NoPromptTokens Reason = "no_prompt_tokens"
	// NotSignificant: not significant, and the interval reaches beyond
	// the tolerance (no regression shown).
	NotSignificant Reason = "not_significant"
	// Underpowered: the run, at its most requests, could not catch a
	// regression of twice the tolerance (not tested; NeedN says how many
	// requests per side would).
	Underpowered Reason = "underpowered"
	// Uncorrected: worse beyond the thresholds and significant on its own,
	// but not after the suite's correction (inconclusive).
	Uncorrected Reason = "uncorrected"
	// HistoryTooShort: too few baseline runs with enough requests to
	// estimate the run-to-run spread.
	HistoryTooShort Reason = "history_too_short"
	// HistorySpread: the baseline history's run-to-run spread exceeds the
	// tolerance: stored baselines cannot tell such a change from drift, so
	// the check is not tested.
	HistorySpread Reason = "history_spread"
	// HistoryNotSignificant: beyond the thresholds, but not significant
	// against the run-to-run spread of the baseline history.
	HistoryNotSignificant Reason = "history_not_significant"
	// NotPositive: the current value is not positive (no relative change).
	NotPositive Reason = "not_positive"
	// NotReported: a server stage (queue, prefill …) that the current
	// side's server does not report: a budget or a comparison on it cannot
	// be checked.
	NotReported Reason = "not_reported"
	// Unconfirmed: a regression that a fresh interleaved run of its
	// scenario did not find again (regression.confirm).
	Unconfirmed Reason = "unconfirmed"
)

// Reasons lists every reason.
var Reasons = []Reason{TooFew, TooFewCurrent, NoRequests, NoPromptTokens, NotSignificant, Underpowered, Uncorrected, HistoryTooShort, HistorySpread, HistoryNotSignificant, NotPositive, NotReported, Unconfirmed}

// Untested reports whether the reason means the check could not be tested
// at all (as opposed to tested without significance).
func (r Reason) Untested() bool {
	switch r {
	case TooFew, TooFewCurrent, NoRequests, NoPromptTokens, HistoryTooShort, HistorySpread, NotPositive, NotReported, Underpowered:
		return true
	}
	return false
}

// History reports whether the reason comes from a comparison with a
// baseline history.
func (r Reason) History() bool {
	return r == TooFewCurrent || r == HistoryTooShort || r == HistorySpread || r == HistoryNotSignificant
}

// Warning is what a comparison could not do as asked for one run.
type Warning string

// Warnings of a comparison.
const (
	// Unblocked: an A/B run whose block numbers are missing on one side (or
	// not one per request) is compared as unpaired runs.
	Unblocked Warning = "unblocked"
	// OneSidedBlocks: requests in blocks measured on one side only take no
	// part in the blocked tests (the estimates include them).
	OneSidedBlocks Warning = "one_sided_blocks"
	// ConfirmNotAsked: an A/B file's confirmation runs were ignored: the
	// suite that judges it does not set regression.confirm.
	ConfirmNotAsked Warning = "confirm_not_asked"
	// ConfirmTooFew: an A/B file's confirmation runs were ignored: they
	// have fewer requests per side than the run they confirm.
	ConfirmTooFew Warning = "confirm_too_few"
	// WorkloadsDiffer: the two sides of a run were drawn from a trace by
	// different draws (another seed, other strata of input length), so
	// their requests are not compared stratum by stratum: the tests are
	// not blocked by stratum and there are no per-stratum checks.
	WorkloadsDiffer Warning = "workloads_differ"
)

// Pair is what a comparison holds of one (endpoint, scenario): its base
// side and its head side, each a run or a sample of one. Base is the zero
// value for a new scenario, Head for a removed one.
type Pair[T any] struct {
	Endpoint, Scenario string
	Base, Head         T
}

// FaultKind is a fault a fault proxy injects in front of an upstream.
type FaultKind string

// Kinds of fault.
const (
	// StallFirstToken: the response never starts (no header, no byte)
	// until the client or the gateway gives up.
	StallFirstToken FaultKind = "stall_first_token"
	// SlowFirstToken: the response is held back by a delay, then
	// forwarded whole.
	SlowFirstToken FaultKind = "slow_first_token"
	// StallMidStream: the stream stops after some events and never ends.
	StallMidStream FaultKind = "stall_mid_stream"
	// HTTPError: an error status (with retry-after) instead of the stream.
	HTTPError FaultKind = "http"
	// Reset: the connection is reset once the request arrived.
	Reset FaultKind = "reset"
	// Refuse: the connection is closed before the request is read.
	Refuse FaultKind = "refuse"
)

// UpstreamHeader is the header latgate's fault proxy stamps its responses
// with (the upstream's name), which a gateway passes back to the client;
// RequestHeader the one every request of a scenario with upstreams
// carries its id in, which the proxies log.
const (
	UpstreamHeader = "Latgate-Upstream"
	RequestHeader  = "Latgate-Request"
)

// FaultKinds are the kinds a suite may name, in order.
var FaultKinds = []FaultKind{StallFirstToken, SlowFirstToken, StallMidStream, HTTPError, Reset, Refuse}

// Failure is the kind of a failed request (its error says the details).
type Failure string

// Kinds of failure.
const (
	// HTTPStatus: the server answered with a status other than 2xx.
	HTTPStatus Failure = "http"
	// Connection: no response, or the connection broke (refused, DNS,
	// TLS, reset).
	Connection Failure = "connection"
	// Timeout: the request took longer than limits.timeout.
	Timeout Failure = "timeout"
	// Stall: no byte for limits.stall_timeout.
	Stall Failure = "stall"
	// Truncated: the stream ended without its proper end.
	Truncated Failure = "truncated"
	// Malformed: an event that is not what the API sends (bad JSON, a
	// line too long), or JSON where a stream was expected.
	Malformed Failure = "malformed"
	// NoOutput: the stream ended properly without any output token.
	NoOutput Failure = "no_output"
	// Provider: the server sent an error inside the stream.
	Provider Failure = "provider"
	// Canceled: the run was interrupted.
	Canceled Failure = "canceled"
	// MaxSteps: a session reached max_steps without a final answer.
	MaxSteps Failure = "max_steps"
	// Request: the request could not be built.
	Request Failure = "request"
	// EventLimit: the stream sent more events than a request may hold
	// (its memory and CPU stay bounded whatever a server streams).
	EventLimit Failure = "event_limit"
	// ToolLimit: a step made more tool calls than a step may.
	ToolLimit Failure = "tool_limit"
	// Page: a browser page's own error (a script error, a failed request
	// of the page, an answer that never appeared).
	Page Failure = "page"
)

// Failures lists every kind of failure.
var Failures = []Failure{HTTPStatus, Connection, Timeout, Stall, Truncated, Malformed, NoOutput, Provider, Canceled, MaxSteps, Request,
	EventLimit, ToolLimit, Page}

// Shot is when a screenshot of a chat page (api browser) was taken.
type Shot string

// Screenshots of a page.
const (
	// FirstPaint: as soon as the driver saw the first turn's first
	// painted text.
	FirstPaint Shot = "first_paint"
	// End: after the request's last turn ended.
	End Shot = "end"
	// AtFailure: when the request failed on the page (a selector that
	// never matched, a page that showed no text).
	AtFailure Shot = "failure"
)

// Shots lists every screenshot's moment.
var Shots = []Shot{FirstPaint, End, AtFailure}

// Finding is what one request to an endpoint says of it (latgate check,
// and the first request of run, ab and gate): usable, or what is wrong.
type Finding string

// Findings of an endpoint's request.
const (
	// Usable: the endpoint streamed an answer.
	Usable Finding = "ok"
	// WebPage: a web page (text/html) where the API's stream was asked.
	WebPage Finding = "web_page"
	// MissingV1: a 404 at a base URL without the /v1 its API's servers
	// serve under.
	MissingV1 Finding = "missing_v1"
	// DoubledV1: a 404 at a URL that holds /v1/v1.
	DoubledV1 Finding = "doubled_v1"
	// NotFound: another 404: the URL is not the API's.
	NotFound Finding = "not_found"
	// UnknownModel: the server lists the models it serves, and not the
	// endpoint's.
	UnknownModel Finding = "unknown_model"
	// KeyRefused: a 401 or 403.
	KeyRefused Finding = "key_refused"
	// JSONBody: one JSON body where a stream was asked (the server ignores
	// stream).
	JSONBody Finding = "json_body"
	// NotStreamed: the answer arrived in one piece (buffered by a proxy or
	// a gateway).
	NotStreamed Finding = "buffered"
	// EmptyAnswer: the stream ended properly with no answer.
	EmptyAnswer Finding = "empty_answer"
	// Redirect: the server redirects the API's request.
	Redirect Finding = "redirect"
	// NoDNS, ConnRefused, BadTLS: the connection failed: a host that does
	// not resolve, nothing listening, a TLS handshake that failed.
	NoDNS       Finding = "dns"
	ConnRefused Finding = "connection_refused"
	BadTLS      Finding = "tls"
	// ServerError: a 5xx or 429, or a request that timed out: the server's
	// state, not the endpoint's configuration (a run measures it as its
	// error rate).
	ServerError Finding = "server_error"
	// Unusable: another failure (the request's error says which).
	Unusable Finding = "failed"
)

// Findings lists every finding.
var Findings = []Finding{Usable, WebPage, MissingV1, DoubledV1, NotFound, UnknownModel, KeyRefused, JSONBody, NotStreamed, EmptyAnswer,
	Redirect, NoDNS, ConnRefused, BadTLS, ServerError, Unusable}

// Stops reports whether a run stops at its first request on this finding:
// a configuration no measurement could make right. A server's error, and
// a failure that may pass, are measured as the run's error rate.
func (f Finding) Stops() bool {
	return f != Usable && f != ServerError && f != Unusable
}
