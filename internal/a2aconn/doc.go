// Package a2aconn holds what both ends of mm's A2A connections need around
// github.com/a2aproject/a2a-go: the agent asked over A2A (a2aagent) and
// mm serve --a2a (internal/frontend/a2a) read a message's text the same way.
package a2aconn
