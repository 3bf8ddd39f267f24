package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// maxLine bounds one line of a stream: a whole tool call's arguments can
// arrive in a single chunk, so lines of several megabytes are normal.
const maxLine = 64 << 20

// accumulator builds a Reply from the chunks of a chat completion stream,
// coping with what local servers really send: arguments split over many
// chunks or whole in one, calls with no id or no index, several calls in
// one reply.
type accumulator struct {
	provider string
	// ids numbers the ids made up for calls sent without one.
	ids *atomic.Int64

	content strings.Builder
	calls   []llm.ToolCall
	// texts are the calls' names and arguments as they arrive, one pair
	// of builders a call: joined with += they cost the square of their
	// pieces (a server may send one character a chunk).
	texts []*callText
	// byIndex maps a server's tool-call index to its place in calls; byID
	// a call's id to its place (the last call with that id).
	byIndex map[int]int
	byID    map[string]int
	finish  string
	usage   llm.Usage
	// done: the server said [DONE].
	done bool
	// events counts the data lines seen, to tell "no stream at all" from
	// "a stream cut short".
	events int
	// bad tells of a number of the reply out of range
	// (openAIModel.badNumber); nil: it is dropped in silence.
	bad func(source, field, problem, then string)
}

// The parts of a streamed chunk (or a whole completion) that matter.
type (
	wireChunk struct {
		Choices []wireChoice    `json:"choices"`
		Error   json.RawMessage `json:"error"`
		// Usage comes in the last chunk (Ollama: one with no choices;
		// llama.cpp: the finishing chunk and that one).
		Usage *wireUsage `json:"usage"`
		// Timings are llama.cpp's own figures.
		Timings *wireTimings `json:"timings"`
	}
	wireUsage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		// PromptDetails.CachedTokens is OpenAI's count of the prompt's
		// tokens it had cached.
		PromptDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	}
	wireTimings struct {
		PredictedMS float64 `json:"predicted_ms"`
		// CacheN is how many of the prompt's tokens llama.cpp found in its
		// cache.
		CacheN *int `json:"cache_n"`
	}
	wireChoice struct {
		Index        int        `json:"index"`
		Delta        *wireDelta `json:"delta"`
		Message      *wireDelta `json:"message"`
		FinishReason *string    `json:"finish_reason"`
	}
	wireDelta struct {
		// Content is null in some chunks; reasoning_content and reasoning
		// are not decoded, so thinking is never shown as the answer.
		Content      *string         `json:"content"`
		ToolCalls    []wireCallDelta `json:"tool_calls"`
		FunctionCall *wireFuncDelta  `json:"function_call"`
	}
	wireCallDelta struct {
		Index    *int          `json:"index"`
		ID       string        `json:"id"`
		Function wireFuncDelta `json:"function"`
	}
	wireFuncDelta struct {
		Name string `json:"name"`
		// Arguments is a JSON string, or (from a few servers) an object.
		Arguments json.RawMessage `json:"arguments"`
	}
)

// readStream reads server-sent events until [DONE] or the end of the body.
// The reply is complete once the server gave a finish_reason or [DONE];
// a body that ends before either is an error, whatever text arrived, since
// a half-written answer or tool call must not pass for a whole one.
func (a *accumulator) readStream(body io.Reader, onText func(string)) error {
	r := bufio.NewReaderSize(body, 64<<10)
	event := ""
	for {
		line, readErr := readLine(r)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			if errors.Is(readErr, errLineTooLong) {
				return fmt.Errorf("%s: %w", a.provider, readErr)
			}
			if a.finish != "" {
				return nil
			}
			return fmt.Errorf("%s stream ended before the reply was complete: %v", a.provider, readErr)
		}
		if len(line) > 0 {
			stop, err := a.line(line, &event, onText)
			if err != nil || stop {
				return err
			}
		} else if readErr == nil {
			event = "" // a blank line ends an event
		}
		if readErr != nil { // io.EOF
			break
		}
	}
	if a.finish != "" || a.done {
		return nil
	}
	if a.events == 0 {
		return fmt.Errorf("%s: the server sent no chat completion stream (is baseURL the API root, ending in /v1?)", a.provider)
	}
	return fmt.Errorf("%s stream ended before the reply was complete", a.provider)
}

// line handles one line of the stream; stop says the stream is over.
func (a *accumulator) line(line []byte, event *string, onText func(string)) (stop bool, err error) {
	if line[0] == ':' { // a comment, often a keep-alive
		return false, nil
	}
	if line[0] == '{' { // a bare JSON line: lenient towards NDJSON-ish servers
		return false, a.data(line, onText)
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "event":
		*event = string(value)
	case "data":
		if string(bytes.TrimSpace(value)) == "[DONE]" {
			a.done = true
			return true, nil
		}
		if *event == "error" {
			return true, a.streamError(value)
		}
		return false, a.data(value, onText)
	case "error": // older llama.cpp servers: "error: {...}"
		return true, a.streamError(value)
	}
	return false, nil
}

// data handles the JSON of one data line.
func (a *accumulator) data(value []byte, onText func(string)) error {
	a.events++
	var c wireChunk
	if err := json.Unmarshal(value, &c); err != nil {
		field, problem, ok := notWhole(err)
		if !ok {
			return fmt.Errorf("%s: bad data in the stream (%v): %s", a.provider, err, oneLine(string(value), 80))
		}
		// The chunk's other fields are read; this one is as if not sent.
		a.tellProblem("chunk", field, problem)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return a.streamError(c.Error)
	}
	if u := c.Usage; u != nil {
		a.usage.InputTokens, a.usage.OutputTokens = a.tokens("prompt_tokens", u.PromptTokens), a.tokens("completion_tokens", u.CompletionTokens)
		if d := u.PromptDetails; d != nil && d.CachedTokens > 0 {
			a.usage.CachedTokens = a.tokens("prompt_tokens_details.cached_tokens", d.CachedTokens)
		}
	}
	if t := c.Timings; t != nil {
		if ms, hi := t.PredictedMS, maxGeneration/time.Millisecond; ms > float64(hi) {
			a.tell("timings", "predicted_ms", ms, int(hi))
		} else if ms > 0 {
			a.usage.Generation = time.Duration(ms * float64(time.Millisecond))
		}
		if t.CacheN != nil {
			a.usage.CachedTokens = a.number("timings", "cache_n", *t.CacheN, maxTokens)
		}
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // only the first choice is asked for
		}
		d := ch.Delta
		if d == nil {
			d = ch.Message
		}
		if d != nil {
			a.delta(d, onText)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
	return nil
}

// tokens is the usage's count n of field, when in range; else 0.
func (a *accumulator) tokens(field string, n int) int {
	return a.number("usage", field, n, maxTokens)
}

// number is n, the field of the reply's part, when from 0 to hi; else 0.
func (a *accumulator) number(part, field string, n, hi int) int {
	if n < 0 || n > hi {
		a.tell(part, field, n, hi)
		return 0
	}
	return n
}

// tell tells of n, out of range.
func (a *accumulator) tell(part, field string, n any, hi int) {
	a.tellProblem(part, field, outOfRange(n, hi))
}

// tellProblem tells of the field of the reply's part and its problem.
func (a *accumulator) tellProblem(part, field, problem string) {
	if a.bad != nil {
		a.bad("the reply's "+part, field, problem, "mm goes on without it")
	}
}

// streamError is an error the server reported inside the stream.
func (a *accumulator) streamError(raw []byte) error {
	var wrapped struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && len(wrapped.Error) > 0 {
		raw = wrapped.Error
	}
	msg := oneLine(messageOf(raw), 300)
	if msg == "" {
		msg = "unknown error"
	}
	if e := contextTooLong(a.provider, "error in the stream: "+msg, raw); e != nil {
		return e
	}
	return fmt.Errorf("%s: error in the stream: %s", a.provider, msg)
}

// delta adds one delta (or whole message) to the reply.
func (a *accumulator) delta(d *wireDelta, onText func(string)) {
	if d.Content != nil && *d.Content != "" {
		a.content.WriteString(*d.Content)
		if onText != nil {
			onText(*d.Content)
		}
	}
	for _, cd := range d.ToolCalls {
		a.callDelta(cd)
	}
	if fc := d.FunctionCall; fc != nil { // the pre-tools form: one call
		zero := 0
		a.callDelta(wireCallDelta{Index: &zero, Function: *fc})
	}
}

// callDelta adds a piece of a tool call. With an index, the index says
// which call it continues. Without one (Ollama, at times), a piece naming a
// tool or bearing a new id starts a call and any other piece continues the
// last one.
func (a *accumulator) callDelta(cd wireCallDelta) {
	if a.byIndex == nil {
		a.byIndex, a.byID = map[int]int{}, map[string]int{}
	}
	pos := -1
	switch {
	case cd.Index != nil:
		// A known index with a different id is a new call: some Ollama
		// versions number the calls of each chunk from 0.
		if p, ok := a.byIndex[*cd.Index]; ok && (cd.ID == "" || a.calls[p].ID == "" || a.calls[p].ID == cd.ID) {
			pos = p
		}
	case cd.ID != "":
		if p, ok := a.byID[cd.ID]; ok {
			pos = p
		}
	case cd.Function.Name == "" && len(a.calls) > 0:
		pos = len(a.calls) - 1
	}
	if pos < 0 {
		pos = len(a.calls)
		a.calls = append(a.calls, llm.ToolCall{})
		a.texts = append(a.texts, &callText{})
		if cd.Index != nil {
			a.byIndex[*cd.Index] = pos
		}
	}
	c := &a.calls[pos]
	if c.ID == "" && cd.ID != "" {
		c.ID = cd.ID
		if p, ok := a.byID[c.ID]; !ok || p < pos {
			a.byID[c.ID] = pos
		}
	}
	t := a.texts[pos]
	if name := cd.Function.Name; name != "" && name != c.Name {
		// Some servers repeat the name in every piece.
		t.name.WriteString(name)
		c.Name = t.name.String()
	}
	if piece := argumentsText(cd.Function.Arguments); piece != "" {
		t.args.WriteString(piece)
		c.Arguments = t.args.String()
	}
}

// callText is a call's name and arguments, built piece by piece; String
// gives each without a copy.
type callText struct{ name, args strings.Builder }

// argumentsText reads arguments sent as a JSON string, or as an object.
func argumentsText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// readWhole reads a complete, non-streamed chat completion.
func (a *accumulator) readWhole(body io.Reader, onText func(string)) error {
	b, err := io.ReadAll(io.LimitReader(body, maxLine))
	if err != nil {
		return fmt.Errorf("%s: read the reply: %w", a.provider, err)
	}
	if err := a.data(b, onText); err != nil {
		return err
	}
	if a.finish == "" {
		a.done = true
	}
	return nil
}

// reply returns the reply built so far, with ids made up where missing and
// the finish reason normalised.
func (a *accumulator) reply() llm.Reply {
	r := llm.Reply{Content: a.content.String(), ToolCalls: a.calls, Usage: a.usage}
	for i := range r.ToolCalls {
		if r.ToolCalls[i].ID == "" {
			r.ToolCalls[i].ID = "call_" + strconv.FormatInt(a.ids.Add(1), 10)
		}
	}
	r.FinishReason = normalFinish(a.finish, len(r.ToolCalls) > 0)
	return r
}

// normalFinish maps the finish reasons servers use onto "stop",
// "tool_calls" and "length". A reply with calls finishes with "tool_calls"
// whatever the server said but "length" — some say "stop" then, and a
// reason mm does not know must not leave calls unrun (fuzz corpus
// finish_unknown_with_call).
func normalFinish(reason string, hasCalls bool) string {
	switch reason {
	case "", "stop", "eos", "end_turn", "stop_sequence":
		reason = "stop"
	case "tool_calls", "function_call", "tool_use":
		reason = "tool_calls"
	case "length", "max_tokens":
		reason = "length"
	}
	if hasCalls && reason != "length" {
		reason = "tool_calls"
	}
	return reason
}

// errLineTooLong is a line over maxLine bytes.
var errLineTooLong = errors.New("a line of the stream is too long")

// readLine returns the next line without its "\n" or "\r\n". At the end of
// the input it returns the last, unterminated line (possibly empty) with
// io.EOF.
func readLine(r *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		part, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, part...)
			if len(long) > maxLine {
				return nil, errLineTooLong
			}
			continue
		}
		line := part
		if long != nil {
			line = append(long, part...)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, err
	}
}
