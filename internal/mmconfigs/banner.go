package mmconfigs

import (
	"path/filepath"
	"strings"
)

// Running is what a session runs with where the command line and the
// environment have a say over the file: the model (--model, else model:,
// else $MM_MODEL) and whether consent is off (--yolo or yolo: true).
// orchestrator.Options.Running merges them once, for the session and for
// every line that shows it, so that what is shown is what runs.
type Running struct {
	Model string
	Yolo  bool
	// Sandbox is the sandbox in force, as sandbox.Policy.Status says it:
	// "sandbox: workspace, network on"; "" leaves the part out.
	Sandbox string
}

// Banner is the start-up line of the line mode, the window and mm check:
// "mm <version> | config: <path> | model: <ref> | agents: <names> |
// sandbox: <mode>, network on|off | yolo: on|off | hooks: …" (the hooks
// reference has the banner end "| yolo: … | hooks: …"). The model, sandbox
// and yolo parts are run's, the session's
// own, never the file's alone. Parts with nothing to say are left out;
// extra parts (such as the MCP servers of a running session) go before
// the hooks part.
func (c *Config) Banner(version, cwd string, run Running, extra ...string) string {
	parts := []string{"mm " + version}
	if c.Path != "" {
		parts = append(parts, "config: "+c.Shown(cwd))
	}
	if run.Model != "" {
		parts = append(parts, "model: "+run.Model)
	}
	if len(c.Agents) > 0 {
		parts = append(parts, "agents: "+strings.Join(c.AgentNames(), ", "))
	}
	if run.Sandbox != "" {
		parts = append(parts, run.Sandbox)
	}
	if run.Yolo {
		parts = append(parts, "yolo: on")
	} else {
		parts = append(parts, "yolo: off")
	}
	for _, e := range extra {
		if e != "" {
			parts = append(parts, e)
		}
	}
	if s := c.Hooks.Summary(); s != "" {
		parts = append(parts, "hooks: "+s)
	}
	return strings.Join(parts, " | ")
}

// DisplayPath shows an absolute path relative to cwd when that is shorter.
func DisplayPath(abs, cwd string) string {
	if rel, err := filepath.Rel(cwd, abs); err == nil && len(rel) < len(abs) {
		return rel
	}
	return abs
}
