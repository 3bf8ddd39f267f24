package mcptools

import (
	"context"
	"encoding/json"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memServer is an in-process MCP server for the tests.
// gate holds the block tool's calls: reached is told when a call has
// reached the server, and a call answers once release is closed (or its
// context ends). Tests wait on reached instead of sleeping.
type gate struct {
	reached chan struct{}
	release chan struct{}
}

func newGate() *gate {
	return &gate{reached: make(chan struct{}, 1), release: make(chan struct{})}
}

// memServer is an in-process MCP server; its block tool waits at g (a gate
// of its own when g is nil).
func memServer(t *testing.T, g *gate) *mcp.Server {
	t.Helper()
	if g == nil {
		g = newGate()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mem", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text" jsonschema:"the text to send back"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send the text back."},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	object := map[string]any{"type": "object"}
	raw := func(name, desc string, res *mcp.CallToolResult) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: object},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	}
	raw("fail", "Always fails.", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it went wrong"}}})
	raw("fail_silently", "Fails without a word.", &mcp.CallToolResult{IsError: true})
	raw("picture", "Text and an image.", &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "a chart:"},
		&mcp.ImageContent{Data: []byte{1, 2, 3}, MIMEType: "image/png"},
		&mcp.ResourceLink{URI: "file:///tmp/chart.png", Name: "chart"},
	}})
	raw("structured", "Structured content only.", &mcp.CallToolResult{StructuredContent: map[string]any{"n": 1}})
	raw("nothing", "", &mcp.CallToolResult{})
	raw("odd.name", "A name to sanitise.", &mcp.CallToolResult{})
	raw("odd_name", "The same name once sanitised.", &mcp.CallToolResult{})
	s.AddTool(&mcp.Tool{Name: "block", Description: "Answers when told to.", InputSchema: object},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case g.reached <- struct{}{}:
			default:
			}
			select {
			case <-g.release:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "unblocked"}}}, nil
		})
	return s
}

// memSet connects an Set to the in-process server, as server "mem". The
// returned pipe end is the server's: closing it is the server going away.
func memSet(t *testing.T, g *gate) (*Set, net.Conn) {
	t.Helper()
	ctx := context.Background()
	serverEnd, clientEnd := net.Pipe()
	_, err := memServer(t, g).Connect(ctx, &mcp.IOTransport{Reader: serverEnd, Writer: serverEnd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := connect(ctx, "mem", &mcp.IOTransport{Reader: clientEnd, Writer: clientEnd}, nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	set := newSet([]*mcpConn{c})
	t.Cleanup(func() { set.Close() })
	return set, serverEnd
}

func findTool(t *testing.T, set tools.MCPTools, name string) tools.Tool {
	t.Helper()
	for _, tool := range set.Tools() {
		if tool.Spec().Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

func TestMCPTools(t *testing.T) {
	set, _ := memSet(t, nil)
	var names []string
	for _, tool := range set.Tools() {
		names = append(names, tool.Spec().Name)
	}
	slices.Sort(names)
	want := []string{"mem__block", "mem__echo", "mem__fail", "mem__fail_silently", "mem__nothing",
		"mem__odd_name", "mem__odd_name_2", "mem__picture", "mem__structured"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}

	echo := findTool(t, set, "mem__echo").Spec()
	if echo.Description != "Send the text back." {
		t.Errorf("echo's description %q", echo.Description)
	}
	var schema struct {
		Type       string `json:"type"`
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(echo.Parameters, &schema); err != nil || schema.Type != "object" ||
		schema.Properties["text"].Description != "the text to send back" {
		t.Errorf("echo's parameters %s (%v)", echo.Parameters, err)
	}
	if d := findTool(t, set, "mem__nothing").Spec().Description; d != `The tool "nothing" of the MCP server "mem".` {
		t.Errorf("default description %q", d)
	}

	st := set.Servers()
	if len(st) != 1 || st[0].Name != "mem" || st[0].Err != nil || len(st[0].Tools) != len(want) {
		t.Errorf("Servers() = %+v", st)
	}
}

func TestMCPCall(t *testing.T) {
	set, _ := memSet(t, nil)
	tests := []struct {
		tool, input string
		want        string
		wantErr     bool
	}{
		{"mem__echo", `{"text": "hello"}`, "hello", false},
		{"mem__echo", `"{\"text\": \"inside a string\"}"`, "inside a string", false},
		{"mem__fail", `{}`, "it went wrong", true},
		{"mem__fail_silently", `{}`, "[the tool failed without saying why]", true},
		{"mem__picture", ``, `a chart:` + "\n" +
			`{"data":"[3 bytes, left out]","mimeType":"image/png","type":"image"}` + "\n" +
			`{"type":"resource_link","uri":"file:///tmp/chart.png","name":"chart"}`, false},
		{"mem__structured", `{}`, `{"n":1}`, false},
		{"mem__nothing", `{}`, "[no output]", false},
		{"mem__echo", `{"text": `, `mem__echo: invalid input: not valid JSON (unexpected end of JSON input)`, true},
		{"mem__echo", `[1]`, `mem__echo: invalid input: want a JSON object, got an array`, true},
		{"mem__echo", `{"text": 5}`, `validating "arguments": validating root: validating /properties/text: type: 5 has type "integer", want "string"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			res := findTool(t, set, tt.tool).Run(context.Background(), tools.Env{}, json.RawMessage(tt.input))
			if res.Output != tt.want || res.IsError != tt.wantErr {
				t.Errorf("got  %q (IsError %v)\nwant %q (IsError %v)", res.Output, res.IsError, tt.want, tt.wantErr)
			}
		})
	}
}

func TestMCPUnknownTool(t *testing.T) {
	set, _ := memSet(t, nil)
	// A tool the server does not have (it could have dropped it since it listed its tools).
	tool := newMCPTool(set.conns[0], "mem__gone", &mcp.Tool{Name: "gone"})
	res := tool.Run(context.Background(), tools.Env{}, json.RawMessage(`{}`))
	if want := `mcp server "mem" refused the call to "gone": unknown tool "gone"`; res.Output != want || !res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
}

func TestMCPCallDeadline(t *testing.T) {
	set, _ := memSet(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res := findTool(t, set, "mem__block").Run(ctx, tools.Env{}, nil)
	if want := `mcp server "mem" failed: no answer from "block" in time`; res.Output != want || !res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
	// The server is still there.
	if res := findTool(t, set, "mem__echo").Run(context.Background(), tools.Env{}, json.RawMessage(`{"text":"hi"}`)); res.Output != "hi" {
		t.Errorf("echo after a deadline: %q", res.Output)
	}
}

func TestMCPCallCancel(t *testing.T) {
	g := newGate()
	set, _ := memSet(t, g)
	ctx, cancel := context.WithCancel(context.Background())
	reached := make(chan struct{})
	go func() { // cancels the call once it is at the server
		defer close(reached)
		select {
		case <-g.reached:
		case <-ctx.Done():
		}
		cancel()
	}()
	res := findTool(t, set, "mem__block").Run(ctx, tools.Env{}, nil)
	cancel()
	<-reached
	if want := `mcp server "mem": call to "block" cancelled`; res.Output != want || !res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
}

func TestMCPServerGoesAway(t *testing.T) {
	g := newGate()
	set, serverEnd := memSet(t, g)
	done := make(chan tools.Result)
	go func() { done <- findTool(t, set, "mem__block").Run(context.Background(), tools.Env{}, nil) }()
	<-g.reached
	serverEnd.Close()
	res := <-done
	want := `mcp server "mem" failed: it closed the connection`
	if res.Output != want || !res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
	// Later calls fail at once, naming the server.
	res = findTool(t, set, "mem__echo").Run(context.Background(), tools.Env{}, json.RawMessage(`{"text":"hi"}`))
	if res.Output != want || !res.IsError {
		t.Errorf("after: got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
	if st := set.Servers(); st[0].Err == nil {
		t.Errorf("Servers() = %+v, want an error", st)
	}
}

func TestMCPCloseEndsCalls(t *testing.T) {
	g := newGate()
	set, _ := memSet(t, g)
	done := make(chan tools.Result)
	go func() { done <- findTool(t, set, "mem__block").Run(context.Background(), tools.Env{}, nil) }()
	<-g.reached
	if err := set.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	res := <-done
	if want := `mcp server "mem": stopped with the session`; res.Output != want || !res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
	if err := set.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestToolName(t *testing.T) {
	long := strings.Repeat("t", 70)
	tests := []struct {
		server, tool string
		taken        []string
		want         string
	}{
		{"fs", "write_file", nil, "fs__write_file"},
		{"my server", "read.file", nil, "my_server__read_file"},
		{"gh", "créer", nil, "gh__cr_er"},
		{"x", long, nil, "x__" + long[:61]},
		{"fs", "a_b", []string{"fs__a_b"}, "fs__a_b_2"},
		{"fs", "a_b", []string{"fs__a_b", "fs__a_b_2"}, "fs__a_b_3"},
		{"x", long, []string{"x__" + long[:61]}, "x__" + long[:59] + "_2"},
	}
	for _, tt := range tests {
		taken := map[string]bool{}
		for _, n := range tt.taken {
			taken[n] = true
		}
		got := uniqueName(toolName(tt.server, tt.tool), taken)
		if got != tt.want || len(got) > 64 {
			t.Errorf("name of %s/%s with %q taken = %q, want %q", tt.server, tt.tool, tt.taken, got, tt.want)
		}
	}
}

func TestNilSet(t *testing.T) {
	var set *Set
	if set.Tools() != nil || set.Servers() != nil || set.Close() != nil {
		t.Error("a nil *Set is not empty")
	}
}

func TestServerEnviron(t *testing.T) {
	got := serverEnviron([]string{"A=1", "B=2"}, map[string]string{"B": "3", "C": "4"})
	if want := []string{"A=1", "B=2", "B=3", "C=4"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := serverEnviron([]string{"A=1"}, nil); !slices.Equal(got, []string{"A=1"}) {
		t.Errorf("got %q", got)
	}
}
