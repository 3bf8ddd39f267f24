package orchestrator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/mmconfigs/schemacheck"
	"github.com/mm-agent/mm/internal/tools"
)

const weatherSchema = `{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"number"}},"required":["city","temp"]}`

// structuredConfig is a configuration whose answers follow weatherSchema.
func structuredConfig(t *testing.T) *mmconfigs.Config {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "weather.json")
	if err := os.WriteFile(p, []byte(weatherSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := mmconfigs.LoadOutputSchema("weather.json", p)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mmconfigs.Default(dir, func(string) string { return "" })
	cfg.StructuredOutput = o
	if err := cfg.CompileSchemas(schemacheck.Compile); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// texts are the Text events a sink got, joined.
func (r *recSink) texts() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, ev := range r.events {
		if t, ok := ev.(Text); ok {
			b.WriteString(t.Text + "|")
		}
	}
	return b.String()
}

func TestStructuredOutput(t *testing.T) {
	const valid = `{"city":"Paris","temp":21}`
	retry := func(why string) string {
		return "Your answer is not valid: " + why + ". Answer again with the JSON alone, valid against the JSON Schema of the system prompt."
	}
	tests := []struct {
		name    string
		replies []llm.Reply
		answer  string
		err     string
		texts   string   // what the front end is shown
		retries []string // the retry messages the model read
	}{
		{"valid at once", []llm.Reply{{Content: valid}}, valid, "", valid + "|", nil},
		{"fenced", []llm.Reply{{Content: "```json\n" + valid + "\n```"}}, valid, "", valid + "|", nil},
		{"valid on the retry", []llm.Reply{{Content: `{"city":"Paris"}`}, {Content: valid}}, valid, "", valid + "|",
			[]string{retry(`the answer does not match the schema: required: missing properties: ["temp"]`)}},
		{"prose twice (response_format ignored)", []llm.Reply{{Content: "It is sunny."}, {Content: "Sunny, 21 degrees."}}, "Sunny, 21 degrees.",
			"structuredOutput weather.json: the answer is not JSON: invalid character 'S' looking for beginning of value (after one retry)", "",
			[]string{retry("the answer is not JSON: invalid character 'I' looking for beginning of value")}},
		{"a tool first", []llm.Reply{{Content: "let me look", ToolCalls: []llm.ToolCall{call("1", "read_file", `{"path":"nothing"}`)}}, {Content: valid}},
			valid, "", valid + "|", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := &recSink{}
			m := &fakeModel{replies: tt.replies}
			s := newTestSession(t, structuredConfig(t), m, sink)
			s.yolo = true
			err := s.Prompt(context.Background(), "weather in Paris?")
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			end := sink.ended()
			if errText != tt.err || end.Answer != tt.answer {
				t.Errorf("answer %q, error %q; want %q, %q", end.Answer, errText, tt.answer, tt.err)
			}
			if got := sink.texts(); got != tt.texts {
				t.Errorf("shown %q, want %q", got, tt.texts)
			}
			var retries []string
			for _, req := range m.requests {
				f := req.Format
				if f == nil || f.Name != "weather" || string(f.Schema) != weatherSchema || !f.Strict {
					t.Errorf("request format %+v", f)
				}
				if sys := req.Messages[0].Content; !strings.HasSuffix(sys, "\n\nYour final answer is JSON alone, with no text around it, valid against this JSON Schema:\n"+weatherSchema) {
					t.Errorf("system prompt %q does not end with the schema", sys)
				}
				if last := req.Messages[len(req.Messages)-1]; strings.HasPrefix(last.Content, "Your answer is not valid") {
					retries = append(retries, last.Content)
				}
			}
			if strings.Join(retries, "\n") != strings.Join(tt.retries, "\n") {
				t.Errorf("retries\n got %q\nwant %q", retries, tt.retries)
			}
		})
	}
}

// TestProseAgentAsksNoFormat: an agent without structuredOutput streams its
// text and asks for no response format.
func TestProseAgentAsksNoFormat(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{Content: "It is sunny."}}}
	s := newTestSession(t, nil, m, sink)
	if err := s.Prompt(context.Background(), "weather?"); err != nil {
		t.Fatal(err)
	}
	if m.requests[0].Format != nil || m.requests[0].Messages[0].Content != mmconfigs.DefaultSystem {
		t.Errorf("request %+v", m.requests[0])
	}
	if got := sink.texts(); got != "It is sunny.|" {
		t.Errorf("shown %q", got)
	}
}

// TestAskToolSpecStructured: ask_agent's description gives a structured
// agent's schema, so that the asking model knows the shape of its answer.
func TestAskToolSpecStructured(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"w.yaml":               "model: echo/x\ndescription: knows the weather\nstructuredOutput: schemas/weather.json\n",
		"schemas/weather.json": "{\n  \"type\": \"object\",\n  \"required\": [\"city\"]\n}\n",
		"plain.yaml":           "model: echo/x\nstructuredOutput: weather.json\n",
		"weather.json":         `{"type":"object"}`,
		"big.yaml":             "model: echo/x\ndescription: verbose\nstructuredOutput: big.json\n",
		"big.json":             `{"type":"object","description":"` + strings.Repeat("x", maxSchemaShown) + `"}`,
		"broken.yaml":          "model: echo/x\ndescription: broken\nstructuredOutput: nothere.json\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := mmconfigs.Default(dir, func(string) string { return "" })
	cfg.Agents = map[string]mmconfigs.Agent{}
	for _, n := range []string{"w", "plain", "big", "broken"} {
		cfg.Agents[n] = fileAgent(filepath.Join(dir, n+".yaml"))
	}
	s := newTestSession(t, cfg, &fakeModel{}, &recSink{})
	want := "Ask another agent a question and read its answer. The agents:\n" +
		"- big: verbose. Answers JSON valid against the schema big.json (2034 bytes, too long to show)\n" +
		"- broken: broken. Answers JSON (its schema nothere.json cannot be read)\n" +
		"- plain: Answers JSON valid against: {\"type\":\"object\"}\n" +
		"- w: knows the weather. Answers JSON valid against: {\"type\":\"object\",\"required\":[\"city\"]}\n" +
		"Set withContext to send this conversation along."
	if got := s.askToolSpec().Description; got != want {
		t.Errorf("description\n got %q\nwant %q", got, want)
	}
}

// TestStructuredOutputNotCompiled: a structuredOutput whose schema no
// compiler compiled (a build without one: a test's) fails the turn on one
// line before any model call, rather than accept an answer unchecked.
func TestStructuredOutputNotCompiled(t *testing.T) {
	cfg := structuredConfig(t)
	cfg.StructuredOutput.Validator = nil
	m := &fakeModel{replies: []llm.Reply{{Content: `{"city":"Paris","temp":21}`}}}
	s := newTestSession(t, cfg, m, &recSink{})
	err := s.Prompt(context.Background(), "weather in Paris?")
	want := "structuredOutput weather.json: the JSON Schema was not compiled: this build of mm has no JSON Schema compiler"
	if err == nil || err.Error() != want {
		t.Errorf("Prompt error\n got: %v\nwant: %s", err, want)
	}
	if len(m.requests) != 0 {
		t.Errorf("%d model calls, want none", len(m.requests))
	}
}

// TestWasmToolsOffered: the configuration's wasm tools follow the built-ins,
// in the order written, and reach their runner.
func TestWasmToolsOffered(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Tools = []string{"read_file"}
	cfg.WasmTools = []tools.WasmDef{
		{Name: "wc", Description: "counts", InputSchema: json.RawMessage(`{"type":"object"}`), Module: "/m/wc.wasm"},
		{Name: "hello", Description: "greets", InputSchema: json.RawMessage(`{"type":"object"}`), Module: "/m/hello.wasm"},
	}
	if err := cfg.CompileSchemas(schemacheck.Compile); err != nil {
		t.Fatal(err)
	}
	runner := &echoModules{}
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{ToolCalls: []llm.ToolCall{call("1", "hello", `{"who":"you"}`)}}, {Content: "ok"}}}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink, WasmTools: runner, Model: "echo/x", Yolo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.model = m
	if got := s.toolList(); got != "read_file, wc, hello" {
		t.Errorf("tools %q", got)
	}
	if err := s.Prompt(context.Background(), "greet"); err != nil {
		t.Fatal(err)
	}
	if got := m.lastToolOutputs(); len(got) != 1 || got[0] != `hello ran /m/hello.wasm on {"who":"you"}` {
		t.Errorf("outputs %q", got)
	}
}

// echoModules is a tools.ModuleRunner that says what it was asked to run.
type echoModules struct{}

func (echoModules) RunTool(ctx context.Context, name, module, cwd string, read, write []string, input []byte, maxStdout int) ([]byte, error) {
	return []byte(name + " ran " + module + " on " + string(input)), nil
}
