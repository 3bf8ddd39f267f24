// Package httpdoor is the door of mm serve's HTTP servers (mm serve --a2a,
// mm serve --mcp-http): what a request must be before a server reads it at
// all — addressed to the address served, from no web page the person did
// not name, JSON when it is a POST, and carrying the bearer token — and the
// bounds every such server keeps: a body limit, a deadline on each write to
// a client, a header timeout, an idle timeout and a cap on open
// connections. It knows none of mm's parts: each server puts its protocol
// behind it.
package httpdoor
