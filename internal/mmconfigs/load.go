package mmconfigs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/strictyaml"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/userconfig"
)

// Error is a configuration that cannot be used. Its text is
// "<path>:<line>: <message>", the position in a compiler's place so that
// the message stays whole ("agent.yaml:8: hooks.preGeneration[0]: unknown
// key "matcherr" (did you mean "matcher"?)"), "<path>:<line>:<column>: …"
// for a syntax error, "<path>: <message>" when no line is known; front ends
// print it as "[config error: <text>]" (Report).
type Error struct {
	// Path is the file the line is in: the configuration as named, or
	// another file it led mm to read (a script model's).
	Path         string
	Line, Column int // from 1; 0: not known
	Msg          string
	// Excerpt is, for a syntax error, the lines Report shows under its
	// line: the source line made visible, a caret under the column and a
	// hint (strictyaml.Excerpt); "" for any other error.
	Excerpt string
}

func (e *Error) Error() string {
	s := e.Path
	switch {
	case e.Line > 0 && e.Column > 0:
		s += fmt.Sprintf(":%d:%d", e.Line, e.Column)
	case e.Line > 0:
		s += fmt.Sprintf(":%d", e.Line)
	}
	return s + ": " + e.Msg
}

// Report is what every front end shows: the line "[config error: <text>]",
// and under it, for a syntax error, its excerpt.
func (e *Error) Report() string {
	line := "[config error: " + e.Error() + "]"
	if e.Excerpt == "" {
		return line
	}
	return line + "\n" + e.Excerpt
}

// NewError is the config error err of the file at path: at err's position
// when it has one (a *strictyaml.PosError), and in the file err names
// itself when it is a *strictyaml.FileError (a script model's): show says
// how that file is named (mm names the configuration as it was given).
func NewError(path string, err error, show func(string) string) *Error {
	var ce *Error
	if errors.As(err, &ce) {
		return ce
	}
	var fe *strictyaml.FileError
	if errors.As(err, &fe) {
		path, err = show(fe.Path), fe.Err
	}
	line, col := strictyaml.Position(err)
	return &Error{Path: path, Line: line, Column: col, Msg: err.Error(), Excerpt: strictyaml.Excerpt(err)}
}

// ModelError is the configuration error of a model reference that makes no
// model (err, models.New's): at the line of the model key when ref is the one
// the file gives, in a script model's own file at its line when the error
// is there, else on the configuration with no line (--model, $MM_MODEL).
func (c *Config) ModelError(ref string, err error, show func(string) string) *Error {
	path := c.Path
	if path == "" {
		path = "(no configuration file)"
	}
	e := NewError(path, err, show)
	if e.Path != path || e.Line != 0 || ref != c.Model || c.modelLine == 0 {
		return e
	}
	placed := *e
	placed.Line = c.modelLine
	return &placed
}

// Find says which configuration file to use: the --config flag, else
// $MM_CONFIG, else ./agent.yaml when it exists, else the person's own
// (UserFile, absolute) when it exists, else "" (the defaults).
func Find(flag, env, cwd string, getenv func(string) string) string {
	switch {
	case flag != "":
		return flag
	case env != "":
		return env
	case isFile(filepath.Join(cwd, "agent.yaml")):
		return "agent.yaml"
	}
	return UserFile(getenv)
}

// Load reads and validates the configuration file at path (relative to cwd
// unless absolute). getenv supplies $MM_MODEL, the default model.
func Load(path, cwd string, getenv func(string) string) (*Config, error) {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, path)
	}
	user := inUserDir(abs, getenv)
	if user {
		path = userconfig.Show(abs, getenv)
	}
	data, err := ReadFile(abs)
	if err != nil {
		msg := err.Error()
		var pe *os.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		if errors.Is(err, os.ErrNotExist) {
			msg = "no such file"
		}
		return nil, &Error{Path: path, Msg: "cannot read: " + msg}
	}
	c := Default(filepath.Dir(abs), getenv)
	c.Path, c.Abs, c.User = path, abs, user
	if err := c.parse(data); err != nil {
		return nil, NewError(path, err, nil)
	}
	return c, nil
}

// parse decodes data into c key by key, so that each error names its key.
func (c *Config) parse(data []byte) error {
	// One document, no alias, each key once in every map — the hooks
	// block's too — checked here for the whole file.
	root, err := strictyaml.Parse(data)
	if err != nil {
		return err
	}
	if root == nil || root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil // an empty file: all defaults
	}
	if root.Kind != yaml.MappingNode {
		return strictyaml.Errorf(root, "must be a map of keys (model:, hooks:, …)")
	}
	top := &topLevel{c: c}
	if err := topKeys.parse(root, top); err != nil {
		return err
	}
	if err := c.checkPermissions(); err != nil {
		return err
	}
	switch {
	case top.system != "" && top.systemFile != "":
		return strictyaml.At(keyOf(root, "systemFile"), errors.New("system and systemFile: give one or the other, not both"))
	case top.system != "":
		c.System = top.system
	case top.systemFile != "":
		p := c.abs(top.systemFile)
		b, err := regularfile.ReadFile(p, MaxSystemFileBytes, "a systemFile")
		if err != nil {
			return strictyaml.At(keyOf(root, "systemFile"), fmt.Errorf("systemFile: cannot read %s: %v", p, unwrapPath(err)))
		}
		c.System = string(b)
	}
	return nil
}

// keyOf is the key node named key of the map n, or nil.
func keyOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

func (c *Config) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

func (c *Config) parseMCPServers(n *yaml.Node) error {
	return eachEntry(n, func(name string, v *yaml.Node) error {
		if err := checkKeys(v, "command", "args", "env"); err != nil {
			return err
		}
		var s struct {
			Command string            `yaml:"command"`
			Args    []string          `yaml:"args"`
			Env     map[string]string `yaml:"env"`
		}
		if err := decodeScalar(v, &s, "a map with command, args and env"); err != nil {
			return err
		}
		if strings.TrimSpace(s.Command) == "" {
			return errors.New("command must not be empty")
		}
		if c.MCPServers == nil {
			c.MCPServers = map[string]tools.MCPServer{}
		}
		c.MCPServers[name] = tools.MCPServer{Name: name, Command: s.Command, Args: s.Args, Env: s.Env}
		return nil
	})
}

func (c *Config) parseAgents(n *yaml.Node) error {
	return eachEntry(n, func(name string, v *yaml.Node) error {
		if !validAgentName(name) {
			return errors.New("an agent's name must match [a-z0-9][a-z0-9_-]* (it becomes /ask-<name>)")
		}
		a, err := c.parseAgent(v)
		if err != nil {
			return err
		}
		if c.Agents == nil {
			c.Agents = map[string]Agent{}
		}
		c.Agents[name] = a
		return nil
	})
}

// parseSkills reads skills:, a list of folders of skills, relative to the
// file's folder. A folder need not exist at load; the session and mm check
// say when one does not.
func (c *Config) parseSkills(n *yaml.Node) error {
	var dirs []string
	if err := decodeScalar(n, &dirs, "a list of folders"); err != nil {
		return err
	}
	c.Skills = []string{}
	for i, d := range dirs {
		if strings.TrimSpace(d) == "" {
			return fmt.Errorf("[%d]: a folder must not be empty", i)
		}
		c.Skills = append(c.Skills, c.abs(d))
	}
	return nil
}

// providerKeys are the keys of a providers: entry, in the reference's
// order; baseURL and apiKeyEnv are decoded with the entry (Provider's yaml
// tags).
var providerKeys = keyTable[*Provider]{
	{name: "baseURL"},
	{name: "apiKeyEnv"},
	{"idleTimeout", func(p *Provider, _, v *yaml.Node) (err error) {
		p.IdleTimeout, err = decodeDuration(v)
		return err
	}},
	{"contextWindow", func(p *Provider, _, v *yaml.Node) (err error) {
		p.ContextWindow, err = decodeInt(v, MinContextWindow)
		return err
	}},
}

func (c *Config) parseProviders(n *yaml.Node) error {
	return eachEntry(n, func(name string, v *yaml.Node) error {
		if err := providerKeys.check(v); err != nil {
			return err
		}
		var p Provider
		if err := decodeScalar(v, &p, "a map with "+andList(providerKeys.names())); err != nil {
			return err
		}
		if err := providerKeys.parse(v, &p); err != nil {
			return err
		}
		if c.Providers == nil {
			c.Providers = map[string]Provider{}
		}
		c.Providers[name] = p
		return nil
	})
}

// eachEntry calls f for each key of the map n; its errors are prefixed with
// the key.
func eachEntry(n *yaml.Node, f func(name string, v *yaml.Node) error) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return strictyaml.Errorf(n, "must be a map of names to entries")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		if err := f(name, n.Content[i+1]); err != nil {
			return strictyaml.At(n.Content[i], fmt.Errorf("%s: %w", name, err))
		}
	}
	return nil
}

// decodeScalar decodes n into v; a type mismatch says what was wanted.
func decodeScalar(n *yaml.Node, v any, want string) error {
	if err := n.Decode(v); err != nil {
		got := n.Value
		if n.Kind != yaml.ScalarNode {
			got = map[yaml.Kind]string{yaml.MappingNode: "a map", yaml.SequenceNode: "a list"}[n.Kind]
		} else {
			got = fmt.Sprintf("%q", got)
		}
		return strictyaml.Errorf(n, "want %s, not %s", want, got)
	}
	return nil
}

// decodeInt decodes a whole number of at least floor. yaml.v3 alone would
// decode 1.9 into an int as 1, so the node's own type is checked first.
func decodeInt(n *yaml.Node, floor int) (int, error) {
	var v int
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!int" {
		return 0, strictyaml.Errorf(n, "want a whole number, not %q", n.Value)
	}
	if err := decodeScalar(n, &v, "a whole number"); err != nil {
		return 0, err
	}
	if v < floor {
		return 0, strictyaml.Errorf(n, "must be >= %d", floor)
	}
	return v, nil
}

// decodeFraction decodes a number from lo to hi.
func decodeFraction(n *yaml.Node, lo, hi float64) (float64, error) {
	var v float64
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!float" && n.ShortTag() != "!!int" {
		return 0, strictyaml.Errorf(n, "want a number from %g to %g, like 0.8, not %q", lo, hi, n.Value)
	}
	if err := decodeScalar(n, &v, "a number"); err != nil {
		return 0, err
	}
	if v < lo || v > hi {
		return 0, strictyaml.Errorf(n, "want a number from %g to %g, like 0.8, not %v", lo, hi, v)
	}
	return v, nil
}

func decodeDuration(n *yaml.Node) (time.Duration, error) {
	var s string
	if err := decodeScalar(n, &s, "a duration like 90s or 10m"); err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, strictyaml.Errorf(n, "want a positive duration like 90s or 10m, not %q", s)
	}
	return d, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
