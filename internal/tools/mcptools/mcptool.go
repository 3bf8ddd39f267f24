package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/jsonkind"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpConn is one server of a Set: its session, its process and its tools.
type mcpConn struct {
	name     string
	startErr error // why it did not start; then nothing else is set

	session *mcp.ClientSession
	proc    *serverProc // nil when there is no process (in tests)
	remote  []*mcp.Tool // as the server listed them
	exposed []string    // their names for the model, in the same order

	// ctx ends with the set: cancelling it ends the calls in flight.
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	broken error // why the session broke, once it has
}

// failure returns why the server stopped answering, or nil.
func (c *mcpConn) failure() error {
	c.mu.Lock()
	err := c.broken
	c.mu.Unlock()
	if err != nil || c.proc == nil {
		return err
	}
	return c.proc.exited()
}

// markBroken records why the session broke: the process's exit when it
// exits soon after, else cause.
func (c *mcpConn) markBroken(cause error) error {
	if c.proc != nil {
		if exit := c.proc.waitExit(mcpGrace); exit != nil {
			cause = exit
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken == nil {
		c.broken = cause
	}
	return c.broken
}

// call calls the server's tool and renders its result for the model.
func (c *mcpConn) call(ctx context.Context, tool string, args map[string]json.RawMessage) tools.Result {
	if c.ctx.Err() != nil {
		return tools.Result{Output: fmt.Sprintf("mcp server %q: stopped with the session", c.name), IsError: true}
	}
	if err := c.failure(); err != nil {
		return tools.Result{Output: fmt.Sprintf("mcp server %q failed: %v", c.name, err), IsError: true}
	}
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(c.ctx, cancel)()
	res, err := c.session.CallTool(callCtx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err == nil {
		return renderResult(res)
	}
	var rpcErr *jsonrpc.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return tools.Result{Output: fmt.Sprintf("mcp server %q failed: no answer from %q in time", c.name, tool), IsError: true}
	case ctx.Err() != nil:
		return tools.Result{Output: fmt.Sprintf("mcp server %q: call to %q cancelled", c.name, tool), IsError: true}
	case c.ctx.Err() != nil:
		return tools.Result{Output: fmt.Sprintf("mcp server %q: stopped with the session", c.name), IsError: true}
	case errors.As(err, &rpcErr):
		// The server is alive and refused the call (unknown tool, bad arguments…).
		return tools.Result{Output: fmt.Sprintf("mcp server %q refused the call to %q: %s", c.name, tool, rpcErr.Message), IsError: true}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		err = errors.New("it closed the connection")
	}
	return tools.Result{Output: fmt.Sprintf("mcp server %q failed: %v", c.name, c.markBroken(err)), IsError: true}
}

// close ends the calls in flight, closes the session and stops the process.
func (c *mcpConn) close() error {
	c.cancel()
	closed := make(chan struct{})
	go func() {
		c.session.Close()
		close(closed)
	}()
	var err error
	if c.proc != nil {
		err = c.proc.stop(mcpGrace)
	}
	t := time.NewTimer(mcpGrace)
	defer t.Stop()
	select {
	case <-closed:
	case <-t.C:
		// The SDK still waits on something; the process is gone, so it
		// will give up on its own.
	}
	if err != nil {
		return fmt.Errorf("stop mcp server %q: %w", c.name, err)
	}
	return nil
}

// mcpTool is one tool of an MCP server, as offered to the model.
type mcpTool struct {
	conn   *mcpConn
	remote string // the server's name for it
	spec   llm.ToolSpec
}

func newMCPTool(c *mcpConn, name string, t *mcp.Tool) *mcpTool {
	params := json.RawMessage(`{"type":"object","properties":{}}`)
	if t.InputSchema != nil {
		if b, err := json.Marshal(t.InputSchema); err == nil && jsonkind.Of(b) == "object" {
			params = b
		}
	}
	desc := t.Description
	if strings.TrimSpace(desc) == "" {
		desc = t.Title
	}
	if strings.TrimSpace(desc) == "" {
		desc = fmt.Sprintf("The tool %q of the MCP server %q.", t.Name, c.name)
	}
	return &mcpTool{conn: c, remote: t.Name, spec: llm.ToolSpec{Name: name, Description: desc, Parameters: params}}
}

func (t *mcpTool) Spec() llm.ToolSpec { return t.spec }

func (t *mcpTool) Run(ctx context.Context, env tools.Env, input json.RawMessage) tools.Result {
	args, err := tools.InputObject(input)
	if err != nil {
		return tools.BadInput(t.spec.Name, err)
	}
	return t.conn.call(ctx, t.remote, args)
}

// renderResult turns an MCP tool's result into the text the model reads:
// text content as it is, anything else as JSON (binary data left out),
// one item per line, capped like a command's output.
func renderResult(res *mcp.CallToolResult) tools.Result {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
			continue
		}
		parts = append(parts, contentJSON(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := tools.CapOutput(strings.Join(parts, "\n"))
	if text == "" {
		text = "[no output]"
		if res.IsError {
			text = "[the tool failed without saying why]"
		}
	}
	return tools.Result{Output: text, IsError: res.IsError}
}

// contentJSON renders non-text content as JSON; the bytes of an image or a
// sound are replaced by their size, which is all a text model can use.
func contentJSON(c mcp.Content) string {
	var v any = c
	switch c := c.(type) {
	case *mcp.ImageContent:
		v = map[string]any{"type": "image", "mimeType": c.MIMEType, "data": omitted(c.Data)}
	case *mcp.AudioContent:
		v = map[string]any{"type": "audio", "mimeType": c.MIMEType, "data": omitted(c.Data)}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("[content that cannot be shown: %v]", err)
	}
	return string(b)
}

func omitted(data []byte) string {
	return fmt.Sprintf("[%d bytes, left out]", len(data))
}
