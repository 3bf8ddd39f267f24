package mmconfigs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/permissions"
	"github.com/mm-agent/mm/internal/strictyaml"
	"github.com/mm-agent/mm/internal/suggest"
)

// permissionKeys are the keys of permissions:, in the reference's order.
var permissionKeys = []string{"allow", "deny"}

// permissionEntry is one rule of permissions: as the file gives it, kept
// until every key is read: which tools there are (wasm tools, MCP
// servers) may come after it in the file.
type permissionEntry struct {
	list string // "allow" or "deny"
	at   int    // its index in the list
	node *yaml.Node
	text string
}

// parsePermissions reads permissions:, a map of allow: and deny:, each a
// list of rules — a string ("read_file", "bash: go test *") or a map of
// one key ("bash: go test *" unquoted, as YAML reads it). The rules' tools
// are checked once the whole file is read (checkPermissions).
func (c *Config) parsePermissions(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return strictyaml.Errorf(n, "permissions: want a map with allow and deny, not %s", kindName(n))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if !slices.Contains(permissionKeys, key.Value) {
			return fmt.Errorf("permissions: %w", strictyaml.UnknownKey(key, permissionKeys))
		}
		if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
			continue
		}
		if val.Kind != yaml.SequenceNode {
			return strictyaml.Errorf(val, "permissions.%s: want a list of rules (- read_file, - bash: go test *), not %s", key.Value, kindName(val))
		}
		for j, item := range val.Content {
			text, err := ruleText(item)
			if err != nil {
				return strictyaml.At(item, fmt.Errorf("permissions.%s[%d]: %w", key.Value, j, err))
			}
			c.permissionEntries = append(c.permissionEntries, permissionEntry{list: key.Value, at: j, node: item, text: text})
		}
	}
	return nil
}

// ruleText is the text of a rule's entry: a string as it is, a map of one
// key as "<key>: <value>".
func ruleText(n *yaml.Node) (string, error) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag != "!!null":
		return n.Value, nil
	case n.Kind == yaml.MappingNode && len(n.Content) == 2:
		k, v := n.Content[0], n.Content[1]
		if v.Kind != yaml.ScalarNode {
			return "", fmt.Errorf("want a rule like bash: go test *, not %s after %q", kindName(v), k.Value+":")
		}
		if v.Tag == "!!null" {
			return k.Value + ":", nil
		}
		return k.Value + ": " + v.Value, nil
	case n.Kind == yaml.MappingNode:
		return "", errors.New("one rule per entry: write each tool's rule as its own - line")
	}
	return "", fmt.Errorf("want a rule (read_file, bash: go test *), not %s", kindName(n))
}

// kindName names the kind of a node for a message.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}

// checkPermissions reads each rule of permissions:, now that the whole
// file is: its tool must be one the configuration can offer, its pattern
// one its tool takes.
func (c *Config) checkPermissions() error {
	for _, e := range c.permissionEntries {
		r, err := permissions.Parse(e.text, c.knownTool)
		if err != nil {
			return strictyaml.At(e.node, fmt.Errorf("permissions.%s[%d]: %w", e.list, e.at, err))
		}
		if e.list == "allow" {
			c.Permissions.Allow = append(c.Permissions.Allow, r)
		} else {
			c.Permissions.Deny = append(c.Permissions.Deny, r)
		}
	}
	c.permissionEntries = nil
	return nil
}

// knownTool checks a rule's tool: a built-in tool, a wasm tool of tools:,
// or <server>__<tool> for a server of mcpServers (its tools are known once
// it runs).
func (c *Config) knownTool(tool string) error {
	known := slices.Clone(toolNames)
	for _, w := range c.WasmTools {
		known = append(known, w.Name)
	}
	if slices.Contains(known, tool) {
		return nil
	}
	if server, _, ok := strings.Cut(tool, "__"); ok {
		if _, ok := c.MCPServers[server]; ok {
			return nil
		}
		if len(c.MCPServers) == 0 {
			return fmt.Errorf("unknown tool %q: an MCP server's tools are <server>__<tool>, and mcpServers lists none", tool)
		}
		return fmt.Errorf("unknown tool %q: no MCP server %q in mcpServers%s", tool, server, suggest.DidYouMean(server, c.MCPServerNames()))
	}
	if near := suggest.Nearest(tool, known); near != "" {
		return fmt.Errorf("unknown tool %q (did you mean %q?)", tool, near)
	}
	return fmt.Errorf("unknown tool %q (known: %s; an MCP server's tools are <server>__<tool>)", tool, strings.Join(known, ", "))
}
