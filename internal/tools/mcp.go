package tools

import (
	"context"
	"time"
)

// MCPServer is an MCP server that speaks over stdio: a command that mm
// starts, in the session's working directory.
type MCPServer struct {
	// Name is the server's name in mcpServers; its tools are offered as
	// <name>__<tool>.
	Name    string
	Command string
	Args    []string
	// Env is added to the environment the server inherits from mm.
	Env map[string]string
}

// MCPServerStatus says how a server of a started set is doing.
type MCPServerStatus struct {
	Name string
	// Tools are the names its tools are offered under (<server>__<tool>).
	Tools []string
	// Err is why the server did not start, or why it stopped answering;
	// nil while it runs.
	Err error
}

// MCPTools is the MCP servers of a session, started together and stopped
// together (package internal/tools/mcptools). Its methods are safe for concurrent
// use.
type MCPTools interface {
	// Tools returns the tools of every server that started, server by
	// server (by name), each server's in the order it listed them.
	Tools() []Tool
	// Servers returns the status of every server asked for, by name.
	Servers() []MCPServerStatus
	// Close stops every server; calls still running end with an error
	// result. It is idempotent and returns what could not be stopped.
	Close() error
}

// MCPStarter starts servers, each with startTimeout (a default when it is
// not positive) to start and list its tools. A server that fails is
// reported by one error naming it, and the others go on. ctx bounds the
// start-up only: the servers run until the returned set's Close.
//
// It is a function type, not a call into a client, so that what names MCP
// servers (the configuration, the orchestrator, the front ends) imports no
// MCP client: cmd/mm plugs tools/mcptools.Start in.
type MCPStarter func(ctx context.Context, servers []MCPServer, env Env, startTimeout time.Duration) (MCPTools, []error)
