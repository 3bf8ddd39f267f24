package hooks

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/strictyaml"
)

// DefaultTimeout bounds a hook run whose entry gives no timeout.
const DefaultTimeout = 10 * time.Second

// What a failing run does (an entry's onError).
const (
	OnErrorFail   = "fail"
	OnErrorWarn   = "warn"
	OnErrorIgnore = "ignore"
)

// Entry is one hook of an event's list, validated.
type Entry struct {
	// Command is run with sh -c; empty for a wasm hook.
	Command string
	// Wasm is the module's absolute path; empty for a command hook.
	Wasm string
	// Read and Write are the folders of the working directory a wasm
	// module may see, cleaned, relative.
	Read, Write []string
	// Matcher is the regular expression as written ("" matches all).
	Matcher string
	Timeout time.Duration
	OnError string
	// ConfigDir is the absolute folder of the configuration file that
	// declared the hook (MM_CONFIG_DIR).
	ConfigDir string

	matcher *regexp.Regexp
}

// Label names the hook in display and failure lines: the command as written,
// or the module's file name. A command written over several lines is shown
// on one, so that a display or report line stays a line.
func (e *Entry) Label() string {
	if e.Wasm != "" {
		return filepath.Base(e.Wasm)
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(strings.TrimSpace(e.Command))
}

// Matches reports whether the hook runs for the tool or agent named subject.
func (e *Entry) Matches(subject string) bool {
	return e.matcher == nil || e.matcher.MatchString(subject)
}

// Config is the hooks: block of a configuration file.
type Config struct {
	byEvent [len(Events)][]Entry
	// node is the block as read, validated by Resolve.
	node *yaml.Node
}

// Entries returns the event's hooks in the order they are written.
func (c *Config) Entries(ev Event) []Entry {
	if c == nil || ev.index() < 0 {
		return nil
	}
	return c.byEvent[ev.index()]
}

// Count is the number of hooks declared across all events.
func (c *Config) Count() int {
	n := 0
	for _, ev := range Events {
		n += len(c.Entries(ev))
	}
	return n
}

// AfterCancel is the longest the hooks that outlive a cancelled turn —
// postGeneration and postAsk (see cancellable) — may run once it is
// cancelled: the sum of their timeouts, each chain running once.
func (c *Config) AfterCancel() time.Duration {
	var d time.Duration
	for _, ev := range Events {
		if ev.cancellable() {
			continue
		}
		for _, e := range c.Entries(ev) {
			d += e.timeout()
		}
	}
	return d
}

// timeout bounds one run of e.
func (e *Entry) timeout() time.Duration {
	if e.Timeout <= 0 {
		return DefaultTimeout
	}
	return e.Timeout
}

// Summary is the banner's hooks part without its label:
// "preGeneration×2 preToolCall×1", events in the reference's order, or "".
func (c *Config) Summary() string {
	var parts []string
	for _, ev := range Events {
		if n := len(c.Entries(ev)); n > 0 {
			parts = append(parts, fmt.Sprintf("%s×%d", ev, n))
		}
	}
	return strings.Join(parts, " ")
}

// UnmarshalYAML keeps the block for Resolve, which needs the configuration
// file's folder to validate it.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	c.node = n
	return nil
}

// Resolve validates the block read from a configuration file in configDir
// (absolute) and makes it usable. Its error is the reference's message, e.g.
// `hooks.preToolCall[0]: timeout must be >= 0`, at the line of the key or
// entry it is about (a *strictyaml.PosError).
func (c *Config) Resolve(configDir string) error {
	c.byEvent = [len(Events)][]Entry{}
	n := c.node
	if n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return strictyaml.Errorf(n, "hooks: must be a map of events to lists of hooks")
	}
	var seen [len(Events)]bool
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, list := n.Content[i], n.Content[i+1]
		name := key.Value
		ev, err := ParseEvent(name)
		if err != nil {
			return strictyaml.Errorf(key, "hooks: %w", err)
		}
		// A second key would silently renumber the entries: refuse it.
		if seen[ev.index()] {
			return strictyaml.Errorf(key, "hooks: event %q is given twice (one list per event)", name)
		}
		seen[ev.index()] = true
		if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
			continue
		}
		if list.Kind != yaml.SequenceNode {
			return strictyaml.Errorf(list, "hooks.%s: must be a list of hooks", ev)
		}
		for j, item := range list.Content {
			e, err := resolveEntry(ev, item, configDir)
			if err != nil {
				return strictyaml.At(item, fmt.Errorf("hooks.%s[%d]: %w", ev, j, err))
			}
			c.byEvent[ev.index()] = append(c.byEvent[ev.index()], e)
		}
	}
	return nil
}

// buildHint tells how to build a missing module when a build.sh beside it
// does (as the wasm examples have): " (not built yet: run <dir>/build.sh)".
func buildHint(module string) string {
	build := filepath.Join(filepath.Dir(module), "build.sh")
	if st, err := os.Stat(build); err == nil && st.Mode().IsRegular() {
		return " (not built yet: run " + build + ")"
	}
	return ""
}

// rawEntry is an entry as written.
type rawEntry struct {
	Command *string  `yaml:"command"`
	Wasm    string   `yaml:"wasm"`
	Read    []string `yaml:"read"`
	Write   []string `yaml:"write"`
	Matcher string   `yaml:"matcher"`
	Timeout string   `yaml:"timeout"`
	OnError string   `yaml:"onError"`
}

// entryKeys are the keys of a hook entry; an unknown key is told the nearest.
var entryKeys = []string{"command", "wasm", "read", "write", "matcher", "timeout", "onError"}

func resolveEntry(ev Event, n *yaml.Node, configDir string) (Entry, error) {
	if n.Kind != yaml.MappingNode {
		return Entry{}, errors.New("must be a map with command or wasm")
	}
	// keys are the entry's key nodes, by name: each error is at the line
	// of the key it is about.
	keys := map[string]*yaml.Node{}
	for i := 0; i < len(n.Content); i += 2 {
		if !slices.Contains(entryKeys, n.Content[i].Value) {
			return Entry{}, strictyaml.UnknownKey(n.Content[i], entryKeys)
		}
		keys[n.Content[i].Value] = n.Content[i]
	}
	at := func(key string, err error) error { return strictyaml.At(keys[key], err) }
	var raw rawEntry
	if err := n.Decode(&raw); err != nil {
		return Entry{}, strictyaml.DecodeError(err)
	}
	e := Entry{ConfigDir: configDir, Matcher: raw.Matcher, OnError: raw.OnError}
	command := ""
	if raw.Command != nil {
		command = *raw.Command
	}
	raw.Wasm = strings.TrimSpace(raw.Wasm)
	switch {
	case raw.Command != nil && raw.Wasm != "":
		return Entry{}, at("wasm", errors.New("give command or wasm, not both"))
	case raw.Wasm != "":
		p, err := ModulePath(configDir, raw.Wasm)
		if err != nil {
			return Entry{}, at("wasm", err)
		}
		e.Wasm = p
	case strings.TrimSpace(command) == "":
		return Entry{}, at("command", errors.New("command must not be empty (or wasm: a module)"))
	default:
		e.Command = command
		if len(raw.Read) > 0 || len(raw.Write) > 0 {
			key := "read"
			if len(raw.Read) == 0 {
				key = "write"
			}
			return Entry{}, at(key, errors.New("read and write only apply to a wasm hook — remove them, or give wasm: a module"))
		}
	}
	var err error
	if e.Read, e.Write, err = Folders(raw.Read, raw.Write); err != nil {
		return Entry{}, at(FoldersKey(raw.Read), err)
	}
	if raw.Matcher != "" {
		if !ev.HasMatcher() {
			return Entry{}, at("matcher", errors.New("matcher is only for preToolCall, postToolCall, preAsk and postAsk"))
		}
		re, err := regexp.Compile(raw.Matcher)
		if err != nil {
			return Entry{}, at("matcher", fmt.Errorf("matcher: %w", err))
		}
		e.matcher = re
	}
	d, err := ParseTimeout(raw.Timeout, DefaultTimeout)
	if err != nil {
		return Entry{}, at("timeout", err)
	}
	e.Timeout = d
	switch e.OnError {
	case "":
		e.OnError = OnErrorWarn
	case OnErrorFail, OnErrorWarn, OnErrorIgnore:
	default:
		return Entry{}, at("onError", errors.New(`onError must be "fail", "warn" or "ignore"`))
	}
	return e, nil
}

// FoldersKey says which key, read or write, holds the folder Folders
// refused: read when its folders alone are refused, else write.
func FoldersKey(read []string) string {
	if _, _, err := Folders(read, nil); err != nil {
		return "read"
	}
	return "write"
}

// ModulePath is the absolute path of a wasm module written as p in a
// configuration file of configDir, or the error "wasm: no module at …"
// (with how to build it, when a build.sh lies beside it). Wasm hooks and
// wasm tools name their modules alike.
func ModulePath(configDir, p string) (string, error) {
	p = strings.TrimSpace(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(configDir, p)
	}
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return "", fmt.Errorf("wasm: no module at %s%s", p, buildHint(p))
	}
	return p, nil
}

// Folders checks the read and write folders of a wasm module (a hook's or
// a tool's) and returns them cleaned: each relative, inside the working
// directory, given once.
func Folders(read, write []string) (r, w []string, err error) {
	seen := map[string]bool{}
	for _, group := range []struct {
		in  []string
		out *[]string
	}{{read, &r}, {write, &w}} {
		for _, f := range group.in {
			clean, err := cleanFolder(f)
			if err != nil {
				return nil, nil, err
			}
			if seen[clean] {
				return nil, nil, fmt.Errorf("folder %q is given twice", f)
			}
			seen[clean] = true
			*group.out = append(*group.out, clean)
		}
	}
	return r, w, nil
}

// ParseTimeout reads a timeout ("5s", "1m30s"); a bare number is seconds;
// absent or 0 is def.
func ParseTimeout(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		secs, nerr := strconv.ParseFloat(s, 64)
		if nerr != nil {
			return 0, fmt.Errorf("timeout: %q is not a duration (write it like 5s or 1m)", s)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d < 0 {
		return 0, errors.New("timeout must be >= 0")
	}
	if d == 0 {
		return def, nil
	}
	return d, nil
}

// cleanFolder checks a read or write folder: relative, inside the working
// directory, not the directory itself.
func cleanFolder(f string) (string, error) {
	if filepath.IsAbs(f) || strings.HasPrefix(f, "/") {
		return "", fmt.Errorf("folder %q must be relative to the working directory", f)
	}
	clean := path.Clean(filepath.ToSlash(f))
	if strings.TrimSpace(f) == "" || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("folder %q must be a folder inside the working directory, not it or above it", f)
	}
	return clean, nil
}
