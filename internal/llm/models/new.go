// Package models makes the model a reference names, "<provider>/<model>":
// one built into mm (echo, script: internal/llm/builtin) or one on a server
// (internal/llm/openai). It is the one package that knows both.
package models

import (
	"net/http"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/llm/builtin"
	"github.com/mm-agent/mm/internal/llm/openai"
)

// Options are what New needs besides the model reference.
type Options struct {
	// Providers adds providers or overrides built-in ones (the config's
	// providers: map). An entry for a built-in provider replaces only the
	// fields it sets.
	Providers map[string]openai.Provider
	// ConfigDir is the folder script/<file> paths are relative to.
	// Empty: the working directory.
	ConfigDir string
	// Getenv reads API keys. Nil: os.Getenv.
	Getenv func(string) string
	// HTTPClient talks to servers. Nil: openai.Options says.
	HTTPClient *http.Client
	// Notify receives, as one line for the person, what a model on a
	// server does that would otherwise be a silent wait (openai.Options).
	// Nil: nobody is told.
	Notify func(line string)
	// Place is the agent's place in a chain of hand-offs, for a server
	// with a slot for each agent (openai.Place).
	Place openai.Place
	// Trace is given what a model on a server sends and receives
	// (openai.Options); a model built into mm sends nothing.
	Trace func(line string)
}

// New returns the model named by ref, "<provider>/<model>": the provider is
// the text before the first slash, the model the rest (which may hold more
// slashes). For a model on a server New does no I/O: an unreachable server
// is reported by the first Stream. A script/<file> model reads and checks
// its file here, so that a bad script fails at start.
func New(ref string, opts Options) (llm.Model, error) {
	provider, name, _ := strings.Cut(ref, "/")
	if name == "" || provider != "echo" && provider != "script" {
		// A model on a server, or a reference that is wrong: openai.New
		// says which.
		return openai.New(ref, opts.server())
	}
	// A bad providers: entry fails whatever the model, as it does for a
	// model on a server.
	if err := openai.CheckProviders(opts.Providers); err != nil {
		return nil, err
	}
	if provider == "echo" {
		return builtin.Echo(), nil
	}
	return builtin.LoadScript(scriptPath(name, opts.ConfigDir))
}

// server is what a model on a server is made with: all of opts but the
// folder of scripts.
func (o Options) server() openai.Options {
	return openai.Options{Providers: o.Providers, Getenv: o.Getenv, HTTPClient: o.HTTPClient, Notify: o.Notify, Place: o.Place, Trace: o.Trace}
}

// scriptPath is where script/<name> is: name when it is absolute, else
// name under dir.
func scriptPath(name, dir string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}
