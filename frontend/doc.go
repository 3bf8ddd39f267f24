// Package frontend holds mm's terminal front ends: the line mode, -p and
// mm --ask. Each is a thin adapter that renders orchestrator events and reads
// the person's input; none holds behaviour of its own. The editor front end
// (-acp) is in frontend/acp.
package frontend
