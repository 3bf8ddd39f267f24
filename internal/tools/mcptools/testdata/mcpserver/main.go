// Command mcpserver is an MCP server over stdio for the tests of package
// tools. Its tools: echo, fail (an error result), crash (the process exits
// mid-call), slow (answers after a while, or when cancelled).
//
// With MCPSERVER_CHILD_PID_FILE set, it starts a sleeping child in its
// process group and writes the child's pid there. With
// MCPSERVER_IGNORE_EOF=1, it does not exit when its stdin closes.
// With MCPSERVER_SILENT=1, it never answers. With MCPSERVER_CALL_FILE set,
// slow creates that file when a call starts.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type slowIn struct {
	Seconds float64 `json:"seconds" jsonschema:"how long to take"`
}

type none struct{}

func main() {
	if f := os.Getenv("MCPSERVER_CHILD_PID_FILE"); f != "" {
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.WriteFile(f, []byte(strconv.Itoa(child.Process.Pid)), 0o644)
	}
	if os.Getenv("MCPSERVER_SILENT") == "1" {
		fmt.Fprintln(os.Stderr, "saying nothing")
		time.Sleep(time.Hour)
	}
	if os.Getenv("MCPSERVER_STARTFAIL") == "1" {
		fmt.Fprintln(os.Stderr, "missing API key")
		os.Exit(2)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpserver", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send the text back."},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails."},
		func(ctx context.Context, req *mcp.CallToolRequest, in none) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("it went wrong")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exits mid-call."},
		func(ctx context.Context, req *mcp.CallToolRequest, in none) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Answers after a while."},
		func(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
			if f := os.Getenv("MCPSERVER_CALL_FILE"); f != "" {
				os.WriteFile(f, nil, 0o644)
			}
			select {
			case <-time.After(time.Duration(in.Seconds * float64(time.Second))):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	err := s.Run(context.Background(), &mcp.StdioTransport{})
	if os.Getenv("MCPSERVER_IGNORE_EOF") == "1" {
		time.Sleep(time.Hour)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
