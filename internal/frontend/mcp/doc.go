// Package mcp serves an mm configuration to MCP clients (mm serve --mcp
// over stdio, mm serve --mcp-http over streamable HTTP): Claude Code,
// Codex, Cursor, Zed or any MCP client calls its agents as tools.
//
// It is a front end like the others, over the MCP SDK's server: each MCP
// session is one orchestrator.Session, started at its first call. Each
// agent of the configuration's mmConfigs is a tool named after it, whose
// call is one hand-off of the session (orchestrator.Session.AskForClient,
// "via": "mcp": the served configuration's preAsk and postAsk hooks
// around it); the served agent itself is one more tool, whose call is one
// turn of its own (Prompt). What the session emits is rendered as MCP
// progress notifications of the call it belongs to: the answer's text as
// it is written (none while postAsk hooks are declared: they decide what
// leaves). A consent question goes to the client as an elicitation when
// it can answer one, and is refused otherwise. A client's text is a
// question: nothing in it is expanded or run as a command.
//
// Over HTTP the server sits behind the door every mm serve has
// (internal/httpdoor: Host, Origin, JSON, the token, the body and
// connection bounds); this package adds its own bounds: calls running at
// once, MCP sessions kept, and an idle session's end.
package mcp
