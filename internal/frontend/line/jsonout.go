package line

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// OutputFormat is what -p and mm --ask write on stdout (--output-format).
type OutputFormat string

// The output formats. docs/reference/output-format.md describes the JSON
// ones; docs/reference/output-format.schema.json is their schema.
const (
	// FormatText is the answer as text, everything else on stderr.
	FormatText OutputFormat = "text"
	// FormatJSON is one object once the run is over.
	FormatJSON OutputFormat = "json"
	// FormatStreamJSON is one object per line as things happen, the same
	// object as FormatJSON's last.
	FormatStreamJSON OutputFormat = "stream-json"
)

// Mode is the JSON output's mode: which of -p and mm --ask ran.
type Mode string

// The modes that write an output format.
const (
	ModePrint Mode = "print"
	ModeAsk   Mode = "ask"
)

// OutputSchema names the version of the JSON output: it changes when a
// field changes meaning or goes away, not when one is added. mm.output/3
// wrote every key in snake_case, as Claude Code's are (issue 41).
const OutputSchema = "mm.output/3"

// ParseOutputFormat reads --output-format's value.
func ParseOutputFormat(s string) (OutputFormat, error) {
	switch f := OutputFormat(s); f {
	case FormatText, FormatJSON, FormatStreamJSON:
		return f, nil
	}
	return "", fmt.Errorf("--output-format %q: use text, json or stream-json", s)
}

// The objects of the JSON output, field for field as the schema has them.
type (
	// jsonInit is stream-json's first line, shaped as Claude Code's
	// {"type":"system","subtype":"init"} event so that a script written for
	// it finds the session, model, tools and folder where it looks.
	jsonInit struct {
		Type      string   `json:"type"`
		Subtype   string   `json:"subtype"`
		Schema    string   `json:"schema"`
		Mode      string   `json:"mode"`
		SessionID *string  `json:"session_id"`
		Model     string   `json:"model,omitempty"`
		Ask       string   `json:"ask,omitempty"`
		Tools     []string `json:"tools"`
		Agents    []string `json:"agents"`
		Cwd       string   `json:"cwd"`
		Version   string   `json:"mm_version"`
	}
	jsonText struct {
		Type  string `json:"type"`
		Agent string `json:"agent"`
		Depth int    `json:"depth"`
		Text  string `json:"text"`
	}
	jsonTool struct {
		Type     string          `json:"type,omitempty"`
		Agent    string          `json:"agent"`
		Depth    int             `json:"depth"`
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Subject  string          `json:"subject"`
		Input    json.RawMessage `json:"input,omitempty"`
		Status   string          `json:"status,omitempty"`
		Output   *string         `json:"output,omitempty"`
		Summary  string          `json:"summary,omitempty"`
		DeniedBy string          `json:"denied_by,omitempty"`
	}
	jsonHook struct {
		Type     string `json:"type,omitempty"`
		N        int    `json:"n"`
		Event    string `json:"event"`
		Subject  string `json:"subject"`
		Hook     string `json:"hook"`
		Decision string `json:"decision"`
		Failure  string `json:"failure,omitempty"`
		Line     string `json:"line"`
	}
	jsonAsk struct {
		Type       string  `json:"type,omitempty"`
		Agent      string  `json:"agent"`
		Depth      int     `json:"depth"`
		Via        string  `json:"via"`
		Question   string  `json:"question"`
		Sent       *string `json:"sent,omitempty"`
		Answer     *string `json:"answer,omitempty"`
		Error      *string `json:"error,omitempty"`
		Denied     *bool   `json:"denied,omitempty"`
		Reason     string  `json:"reason,omitempty"`
		Replaced   *bool   `json:"replaced,omitempty"`
		DurationMs *int64  `json:"duration_ms,omitempty"`
	}
	jsonNotice struct {
		Type string `json:"type,omitempty"`
		Kind string `json:"kind"`
		Text string `json:"text"`
	}
	jsonCompressed struct {
		Type       string `json:"type,omitempty"`
		Before     int    `json:"before"`
		After      int    `json:"after"`
		Trimmed    int    `json:"trimmed"`
		Summarised int    `json:"summarised"`
		Line       string `json:"line"`
	}
	// jsonUsage takes Claude Code's names for the token counts; the rest
	// is mm's own, in the same snake_case.
	jsonUsage struct {
		InputTokens     int     `json:"input_tokens"`
		OutputTokens    int     `json:"output_tokens"`
		ModelCalls      int     `json:"model_calls"`
		Reported        int     `json:"reported"`
		TokensPerSecond float64 `json:"tokens_per_second"`
	}
	// jsonResult is the last line. The fields that mean what Claude Code's
	// result means take its names (type, subtype, is_error, result,
	// session_id, num_turns, duration_ms, usage); mm's own facts keep
	// theirs, written in the same snake_case.
	jsonResult struct {
		Type       string       `json:"type"`
		Subtype    string       `json:"subtype"`
		Schema     string       `json:"schema"`
		Mode       string       `json:"mode"`
		IsError    bool         `json:"is_error"`
		Result     string       `json:"result"`
		SessionID  *string      `json:"session_id"`
		NumTurns   int          `json:"num_turns"`
		DurationMs int64        `json:"duration_ms"`
		Error      *string      `json:"error"`
		ExitCode   int          `json:"exit_code"`
		Usage      *jsonUsage   `json:"usage"`
		ToolCalls  []jsonTool   `json:"tool_calls"`
		Hooks      []jsonHook   `json:"hooks"`
		Asks       []jsonAsk    `json:"asks"`
		Notices    []jsonNotice `json:"notices"`
		// Compressions are the context compressions of the run.
		Compressions []jsonCompressed `json:"compressions"`
	}
)

// jsonSink is the Sink of -p and mm --ask with a JSON output format: it
// gathers the run's result and, for stream-json, writes each event as one
// line as it happens.
type jsonSink struct {
	mu     sync.Mutex
	out    io.Writer
	stream bool
	start  time.Time
	res    jsonResult
	// tools maps an open call (agent and id) to its place in res.ToolCalls.
	tools map[[2]string]int
	// asks maps an asked agent to the places of its open hand-offs.
	asks map[string][]int
	// holdText keeps text events off the stream (mm --ask with a postAsk
	// hook, which may replace the answer): the result carries what is read.
	holdText bool
	answer   string
	usage    orchestrator.Usage
	consent  func(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer
}

func newJSONSink(out io.Writer, format OutputFormat, mode Mode) *jsonSink {
	return &jsonSink{
		out: out, stream: format == FormatStreamJSON, start: time.Now(),
		res: jsonResult{Type: "result", Schema: OutputSchema, Mode: string(mode),
			ToolCalls: []jsonTool{}, Hooks: []jsonHook{}, Asks: []jsonAsk{}, Notices: []jsonNotice{},
			Compressions: []jsonCompressed{}},
		tools: map[[2]string]int{}, asks: map[string][]int{},
	}
}

// write sends one line of the stream; the caller holds mu.
func (j *jsonSink) write(v any) {
	if !j.stream {
		return
	}
	j.line(v)
}

// line writes v as one line of JSON, with <, > and & as they are: the
// output is read by programs, not put in a web page.
func (j *jsonSink) line(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // only an input can fail, and it was checked
		b.Reset()
		enc.Encode(jsonNotice{Type: "notice", Kind: "warning", Text: "mm: cannot encode an event: " + err.Error()})
	}
	j.out.Write(terminalSafe(b.Bytes()))
}

// terminalSafe escapes, in encoded JSON, the characters encoding/json
// leaves as they are but a terminal obeys or a person misreads — DEL, the
// C1 controls, the bidi controls — as \uXXXX: the JSON decodes to the same
// text, and stays harmless when a person runs mm -p --output-format json on
// a terminal. They can only be inside strings; encoding/json has already
// escaped the C0 controls and made the text valid UTF-8.
func terminalSafe(b []byte) []byte {
	// frontend.Visible changes a text exactly when it holds such a character (or a
	// C0 one, which encoded JSON has not).
	if s := string(b); frontend.Visible(s) == s {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for _, r := range string(b) {
		if r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			out = fmt.Appendf(out, `\u%04x`, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// RunInfo is what the JSON output says of the run besides its events:
// the session it is saved as, and what stream-json's init line names.
type RunInfo struct {
	// Session is the id the run is saved as ("" when nothing is: --no-save,
	// or no sessions folder) and whether its file holds it yet: the init
	// line names the id, the result only a saved one, which --resume finds.
	Session func() (id string, saved bool)
	// Version is mm's; Cwd the session's folder.
	Version, Cwd string
	// ResumeNotice is the lines that tell what was resumed: notices of the JSON
	// output, so that stderr stays empty.
	ResumeNotice string
}

// sessionID is the init line's session_id (savedOnly false: the id the
// run is saved as) or the result's (savedOnly: only an id whose file holds
// the session, which --resume finds); nil for none.
func (i RunInfo) sessionID(savedOnly bool) *string {
	if i.Session == nil {
		return nil
	}
	if id, saved := i.Session(); id != "" && (saved || !savedOnly) {
		return &id
	}
	return nil
}

// begin opens the stream once the session is ready: the init line, then
// what was resumed.
func (j *jsonSink) begin(s *orchestrator.Session, ask string, info RunInfo) {
	j.mu.Lock()
	j.write(jsonInit{Type: "system", Subtype: "init", Schema: OutputSchema, Mode: j.res.Mode,
		SessionID: info.sessionID(false), Model: s.Model(), Ask: ask,
		Tools: nonNil(s.Tools()), Agents: nonNil(s.Agents()), Cwd: info.Cwd, Version: info.Version})
	j.mu.Unlock()
	for _, line := range strings.Split(info.ResumeNotice, "\n") {
		if line != "" {
			j.Emit(orchestrator.Notice{Kind: orchestrator.NoticeInfo, Text: line})
		}
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// finish writes the result: the last line of stream-json, the one object
// of json.
func (j *jsonSink) finish(answer string, err error, code int, info RunInfo) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.res.Result, j.res.ExitCode, j.res.IsError = answer, code, code != 0
	j.res.Subtype = "success"
	var steps *orchestrator.StepsError
	switch {
	case errors.As(err, &steps):
		j.res.Subtype = "error_max_turns" // Claude Code's, for its --max-turns
	case code != 0:
		j.res.Subtype = "error_during_execution"
	}
	if err != nil {
		msg := err.Error()
		j.res.Error = &msg
	}
	j.res.SessionID = info.sessionID(true)
	j.res.DurationMs = time.Since(j.start).Milliseconds()
	if u := j.usage; u.Calls > 0 {
		j.res.Usage = &jsonUsage{ModelCalls: u.Calls, Reported: u.Reported, InputTokens: u.InputTokens,
			OutputTokens: u.OutputTokens, TokensPerSecond: roundRate(u.TokensPerSecond())}
	}
	j.res.NumTurns = j.usage.Calls
	if j.res.Mode == "ask" && len(j.res.Asks) > 0 {
		j.res.NumTurns = 1 // one hand-off, and no model call of this agent's
	}
	j.line(j.res)
}

// Failed writes the JSON output of -p or mm --ask (mode) that failed on
// err, with exit code code, before its session started: the result alone,
// for json and stream-json alike (an init line describes a session), its
// session_id null.
func Failed(out io.Writer, format OutputFormat, mode Mode, err error, code int) {
	newJSONSink(out, format, mode).failed(err, code, RunInfo{})
}

// failed writes the result of a run whose session did not start: a
// configuration error reads as every mode prints it (frontend.ErrorText).
func (j *jsonSink) failed(err error, code int, info RunInfo) {
	j.finish("", errors.New(frontend.ErrorText(err)), code, info)
}

// roundRate keeps one decimal of a rate: more is noise.
func roundRate(r float64) float64 { return float64(int64(r*10+0.5)) / 10 }

func (j *jsonSink) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	if j.consent == nil {
		return orchestrator.ConsentUnavailable
	}
	return j.consent(ctx, req)
}

func (j *jsonSink) Emit(ev orchestrator.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch e := ev.(type) {
	case orchestrator.Text:
		if !j.holdText {
			j.write(jsonText{Type: "text", Agent: e.Agent, Depth: orchestrator.Depth(e.Agent), Text: e.Text})
		}
	case orchestrator.ToolStarted:
		t := jsonTool{Agent: e.Agent, Depth: orchestrator.Depth(e.Agent), ID: e.ID, Name: e.Name, Subject: e.Subject, Input: validOrNil(e.Input)}
		j.tools[[2]string{e.Agent, e.ID}] = len(j.res.ToolCalls)
		j.res.ToolCalls = append(j.res.ToolCalls, t)
		t.Type = "tool_start"
		j.write(t)
	case orchestrator.ToolEnded:
		j.toolEnded(e)
	case orchestrator.HookRan:
		h := jsonHook{N: e.N, Event: e.Event, Subject: e.Subject, Hook: e.Hook, Decision: e.Decision, Failure: e.Failure, Line: e.Line}
		j.res.Hooks = append(j.res.Hooks, h)
		h.Type = "hook"
		j.write(h)
	case orchestrator.AskStarted:
		a := jsonAsk{Agent: e.Agent, Depth: e.Depth, Via: e.Via, Question: e.Question}
		j.asks[e.Agent] = append(j.asks[e.Agent], len(j.res.Asks))
		j.res.Asks = append(j.res.Asks, a)
		a.Type = "ask_start"
		j.write(a)
	case orchestrator.AskEnded:
		j.askEnded(e)
	case orchestrator.Notice:
		n := jsonNotice{Kind: noticeKind(e.Kind), Text: e.Text}
		j.res.Notices = append(j.res.Notices, n)
		n.Type = "notice"
		j.write(n)
	case orchestrator.Compressed:
		c := jsonCompressed{Before: e.Before, After: e.After, Trimmed: e.Trimmed, Summarised: e.Summarised, Line: e.Line()}
		j.res.Compressions = append(j.res.Compressions, c)
		c.Type = "compressed"
		j.write(c)
	case orchestrator.TurnEnded:
		j.answer = e.Answer
		j.usage = j.usage.Add(e.Usage)
	case orchestrator.ModelStarted, orchestrator.Compressing:
		// Waits, not what happened: the output reports the compression
		// (Compressed) and the usage.
	case orchestrator.CommandReply, orchestrator.UserText:
		// What a slash command says to a person, and a resumed
		// conversation shown again: the output reports this run only.
	}
}

func (j *jsonSink) toolEnded(e orchestrator.ToolEnded) {
	out := e.Output
	t := jsonTool{Agent: e.Agent, Depth: orchestrator.Depth(e.Agent), ID: e.ID, Name: e.Name, Subject: e.Subject,
		Status: string(e.Status), Output: &out, Summary: e.Summary, DeniedBy: e.DeniedBy}
	key := [2]string{e.Agent, e.ID}
	if i, ok := j.tools[key]; ok {
		delete(j.tools, key)
		t.Input = j.res.ToolCalls[i].Input
		j.res.ToolCalls[i] = t
	} else { // denied before it started
		j.res.ToolCalls = append(j.res.ToolCalls, t)
	}
	t.Type, t.Input = "tool_end", nil
	j.write(t)
}

func (j *jsonSink) askEnded(e orchestrator.AskEnded) {
	sent, answer, denied, replaced := e.Sent, e.Answer, e.Denied, e.Replaced
	ms := e.Duration.Milliseconds()
	a := jsonAsk{Agent: e.Agent, Depth: e.Depth, Via: e.Via, Sent: &sent, Answer: &answer,
		Denied: &denied, Reason: e.Reason, Replaced: &replaced, DurationMs: &ms}
	if e.Err != nil {
		msg := e.Err.Error()
		a.Error = &msg
	}
	if open := j.asks[e.Agent]; len(open) > 0 {
		i := open[0]
		j.asks[e.Agent] = open[1:]
		a.Question = j.res.Asks[i].Question
		j.res.Asks[i] = a
	} else {
		j.res.Asks = append(j.res.Asks, a)
	}
	a.Type = "ask_end"
	j.write(a)
}

// validOrNil keeps a call's input when it is JSON (the model may send
// anything); the output then leaves it out.
func validOrNil(in json.RawMessage) json.RawMessage {
	if len(in) == 0 || !json.Valid(in) {
		return nil
	}
	return in
}

func noticeKind(k orchestrator.NoticeKind) string {
	switch k {
	case orchestrator.NoticeHookFailure:
		return "hook_failure"
	case orchestrator.NoticeWarning:
		return "warning"
	}
	return "info"
}
