package mmconfigs

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/strictyaml"
)

// keyTable is how the keys of one kind of map in a file are read: a row
// per key, in the order the reference gives them. The message of an
// unknown key lists the table's keys, or suggests the nearest, so that a
// new key is one row.
type keyTable[T any] []keyRow[T]

// keyRow is one key of a keyTable.
type keyRow[T any] struct {
	name string
	// parse reads the key's value val into t; key is the key's node. nil:
	// the value is decoded with the whole map (a struct's yaml tags).
	parse func(t T, key, val *yaml.Node) error
}

// placed marks an error that names its own place ("tools[2]: …",
// "hooks.preToolCall[0]: …"): keyTable.parse does not put the key in
// front of it.
type placed struct{ err error }

func (p placed) Error() string { return p.err.Error() }

// names are the table's keys, in its order.
func (tab keyTable[T]) names() []string {
	names := make([]string, len(tab))
	for i, r := range tab {
		names[i] = r.name
	}
	return names
}

// row is the row of the key name.
func (tab keyTable[T]) row(name string) (keyRow[T], bool) {
	i := slices.IndexFunc(tab, func(r keyRow[T]) bool { return r.name == name })
	if i < 0 {
		return keyRow[T]{}, false
	}
	return tab[i], true
}

// check refuses the first key of the map n that is not in the table (a
// value of another kind is left to the decoding to report).
func (tab keyTable[T]) check(n *yaml.Node) error {
	return checkKeys(n, tab.names()...)
}

// parse reads the keys of the map n into t, in the file's order, stopping
// at the first key that is not in the table or whose value is bad. A
// value's error is "<key>: <error>", at the key's line unless it has one
// of its own; a placed error is left as it is, at the key's line.
func (tab keyTable[T]) parse(n *yaml.Node, t T) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		r, ok := tab.row(key.Value)
		switch {
		case !ok:
			return strictyaml.UnknownKey(key, tab.names())
		case r.parse == nil:
			continue
		}
		err := r.parse(t, key, val)
		if p, ok := err.(placed); ok {
			return strictyaml.At(key, p.err)
		}
		if err != nil {
			return strictyaml.At(key, fmt.Errorf("%s: %w", key.Value, err))
		}
	}
	return nil
}

// checkKeys refuses a map key outside known.
func checkKeys(n *yaml.Node, known ...string) error {
	if n.Kind != yaml.MappingNode {
		return nil // decodeScalar reports the type
	}
	for i := 0; i < len(n.Content); i += 2 {
		if !slices.Contains(known, n.Content[i].Value) {
			return strictyaml.UnknownKey(n.Content[i], known)
		}
	}
	return nil
}

// andList is names as a sentence writes them: "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
