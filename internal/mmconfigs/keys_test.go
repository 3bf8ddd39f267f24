package mmconfigs

import (
	"errors"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/strictyaml"
)

// TestKeyTables: each table's keys, in the reference's order, are what an
// unknown key's message lists, and each key is given once.
func TestKeyTables(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		want  string
	}{
		{"top level", topKeys.names(), "model, description, system, systemFile, tools, mcpServers, mmConfigs, structuredOutput, providers, hooks, permissions, yolo, displayHooks, displayCommands, maxSteps, maxParallelTools, maxAskDepth, askTimeout, skills, projectDocs, contextWindow, compressAt, persist, sandbox"},
		{"an agent by command", agentKeysOf(AgentCommand).names(), "command, env, cwd, description, startTimeout"},
		{"an agent over ssh", agentKeysOf(AgentSSH).names(), "ssh, config, mm, sshArgs, cwd, description, startTimeout"},
		{"an agent over A2A", agentKeysOf(AgentA2A).names(), "a2a, tokenEnv, description"},
		{"an agent by file (no map)", agentKeysOf(AgentFile).names(), ""},
		{"a provider", providerKeys.names(), "baseURL, apiKeyEnv, idleTimeout, contextWindow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(tt.names, ", "); got != tt.want {
				t.Errorf("keys\n got: %s\nwant: %s", got, tt.want)
			}
			seen := map[string]bool{}
			for _, n := range tt.names {
				if seen[n] {
					t.Errorf("key %q is in the table twice", n)
				}
				seen[n] = true
			}
		})
	}
}

// TestKeysDocumented: every key a table reads has its row in the
// reference, so that a new row cannot go undocumented.
func TestKeysDocumented(t *testing.T) {
	var agent []string
	for _, k := range agentKeys {
		agent = append(agent, k.name)
	}
	for page, names := range map[string][]string{
		"../../docs/reference/config.md": append(topKeys.names(), agent...),
		"../../docs/reference/models.md": providerKeys.names(),
	} {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if !strings.Contains(string(doc), "\n| `"+n+"` |") {
				t.Errorf("%s has no row for the key %s", page, n)
			}
		}
	}
}

// TestKeyTableParse: the loop every table shares — keys in the file's
// order, the first unknown one refused with the nearest known, a value's
// error behind its key at the key's line unless it has a line of its own,
// a placed error as it is.
func TestKeyTableParse(t *testing.T) {
	type seen struct{ keys []string }
	tab := keyTable[*seen]{
		{"name", func(s *seen, k, _ *yaml.Node) error { s.keys = append(s.keys, k.Value); return nil }},
		{name: "decoded"}, // decoded with the whole map: skipped
		{"bad", func(*seen, *yaml.Node, *yaml.Node) error { return errors.New("must be good") }},
		{"badAt", func(_ *seen, _, v *yaml.Node) error { return strictyaml.Errorf(v, "want more") }},
		{"placed", func(*seen, *yaml.Node, *yaml.Node) error { return placed{errors.New("list[2]: broken")} }},
	}
	tests := []struct{ name, in, want string }{
		{"an unknown key after known ones", "name: a\ndecoded: x\nname2: b\n", `f.yaml:3: unknown key "name2" (did you mean "name"?)`},
		{"a bad value", "name: a\nbad: 1\n", "f.yaml:2: bad: must be good"},
		{"a value's own line", "badAt:\n  x\n", "f.yaml:2: badAt: want more"},
		{"placed", "placed: 1\n", "f.yaml:1: list[2]: broken"},
		{"the first problem wins", "bad: 1\nnope: 2\n", "f.yaml:1: bad: must be good"},
		{"far from every key", "zzzzzzzz: 1\n", `f.yaml:1: unknown key "zzzzzzzz" (known: name, decoded, bad, badAt, placed)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := strictyaml.Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			s := &seen{}
			err = tab.parse(root, s)
			if got := strictyaml.Located("f.yaml", err); err == nil || got != tt.want {
				t.Errorf("parse\n got: %s\nwant: %s", got, tt.want)
			}
		})
	}
	root, _ := strictyaml.Parse([]byte("name: a\ndecoded: x\n"))
	s := &seen{}
	if err := tab.parse(root, s); err != nil || strings.Join(s.keys, ",") != "name" {
		t.Errorf("parse = %v, read %q; want nil, [name]", err, s.keys)
	}
	if err := tab.check(root); err != nil {
		t.Errorf("check = %v", err)
	}
}

func TestAndList(t *testing.T) {
	for want, names := range map[string][]string{
		"":           nil,
		"a":          {"a"},
		"a and b":    {"a", "b"},
		"a, b and c": {"a", "b", "c"},
	} {
		if got := andList(names); got != want {
			t.Errorf("andList(%q) = %q, want %q", names, got, want)
		}
	}
}
