package schemacheck

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// MaxApplied bounds the subschemas one value of an answer may be checked
// against: anyOf, oneOf, allOf and $ref multiply them, and a schema of a
// few kilobytes can ask for billions. A schema of real data needs tens.
const MaxApplied = 10000

// inPlace are the keywords whose schemas apply to the value itself; the
// others (properties, items, …) apply to a part of it.
var inPlace = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "not": true,
	"if": true, "then": true, "else": true, "dependentSchemas": true, "$ref": true, "$dynamicRef": true}

// subschemaKeys are the keywords whose values hold schemas: one schema, a
// list of them, or a map of names to them.
var subschemaKeys = map[string]string{
	"allOf": "list", "anyOf": "list", "oneOf": "list", "prefixItems": "list",
	"not": "one", "if": "one", "then": "one", "else": "one", "items": "one", "contains": "one",
	"additionalProperties": "one", "propertyNames": "one", "unevaluatedItems": "one",
	"unevaluatedProperties": "one", "additionalItems": "one",
	"properties": "map", "patternProperties": "map", "dependentSchemas": "map",
	"$defs": "map", "definitions": "map",
}

// node is one subschema of the document, at its JSON pointer.
type node struct {
	ptr  string
	obj  map[string]any
	kids []edge
}

// edge is a subschema that node applies: to the value itself (inPlace) or
// to a part of it.
type edge struct {
	to      string // a JSON pointer in the document, or "" for a ref outside it
	inPlace bool
}

// checkBounds refuses a schema whose validation would not end — a $ref that
// leads back to itself with no property or item in between — or would
// apply more than MaxApplied subschemas to one value.
func checkBounds(schema json.RawMessage) error {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil // the compiler words it
	}
	nodes := map[string]*node{}
	anchors := map[string]string{}
	collect(doc, "#", nodes, anchors)
	for _, n := range nodes {
		for key, v := range n.obj {
			if key != "$ref" && key != "$dynamicRef" {
				continue
			}
			if ref, ok := v.(string); ok {
				n.kids = append(n.kids, edge{to: resolveRef(ref, nodes, anchors), inPlace: true})
			}
		}
	}
	c := &counter{nodes: nodes, memo: map[string]int{}, onPath: map[string]bool{}, busy: map[string]bool{}}
	ptrs := make([]string, 0, len(nodes))
	for p := range nodes {
		ptrs = append(ptrs, p)
	}
	sort.Strings(ptrs) // the same schema gives the same message
	for _, p := range ptrs {
		if _, err := c.applied(p); err != nil {
			return err
		}
	}
	return nil
}

// collect records every subschema of v, at ptr, and the anchors ($anchor,
// $dynamicAnchor) it names.
func collect(v any, ptr string, nodes map[string]*node, anchors map[string]string) {
	obj, ok := v.(map[string]any)
	if !ok {
		return // true, false: nothing to apply
	}
	n := &node{ptr: ptr, obj: obj}
	nodes[ptr] = n
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok {
			anchors[a] = ptr
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kind, ok := subschemaKeys[k]
		if !ok {
			continue
		}
		at := ptr + "/" + escape(k)
		applies := k != "$defs" && k != "definitions"
		switch kind {
		case "one":
			collect(obj[k], at, nodes, anchors)
			if applies {
				n.kids = append(n.kids, edge{to: at, inPlace: inPlace[k]})
			}
		case "list":
			list, _ := obj[k].([]any)
			for i, s := range list {
				p := at + "/" + strconv.Itoa(i)
				collect(s, p, nodes, anchors)
				n.kids = append(n.kids, edge{to: p, inPlace: inPlace[k]})
			}
		case "map":
			m, _ := obj[k].(map[string]any)
			for name, s := range m {
				p := at + "/" + escape(name)
				collect(s, p, nodes, anchors)
				if applies {
					n.kids = append(n.kids, edge{to: p, inPlace: inPlace[k]})
				}
			}
		}
	}
}

// resolveRef is the pointer a $ref names in this document: "#", "#/…" or
// "#<anchor>"; "" for one that leads elsewhere (the compiler refuses it).
func resolveRef(ref string, nodes map[string]*node, anchors map[string]string) string {
	if !strings.HasPrefix(ref, "#") {
		return ""
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return ""
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		p := "#" + frag
		if _, ok := nodes[p]; ok {
			return p
		}
		return ""
	}
	return anchors[frag]
}

// escape writes a key as a JSON pointer's token.
func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// counter counts, for each subschema, how many subschemas checking one
// value against it applies: itself and, multiplied through the in-place
// keywords, those it applies to the value; a part of the value is another
// value, counted on its own, so a property or an item counts once and may
// lead back (a tree of values is finite).
type counter struct {
	nodes map[string]*node
	memo  map[string]int
	// onPath are the schemas being counted for this value; busy, those
	// being counted for any value above it too.
	onPath, busy map[string]bool
}

func (c *counter) applied(ptr string) (int, error) {
	if n, ok := c.memo[ptr]; ok {
		return n, nil
	}
	n := c.nodes[ptr]
	if n == nil {
		return 1, nil
	}
	switch {
	case c.onPath[ptr]:
		return 0, fmt.Errorf("its $ref at %s leads back to itself with no property or item in between: checking a value against it would never end", ptr)
	case c.busy[ptr]:
		// Counted for a value above this one: a tree's next level.
		return 1, nil
	}
	c.onPath[ptr], c.busy[ptr] = true, true
	defer func() { delete(c.onPath, ptr); delete(c.busy, ptr) }()
	total := 1
	for _, e := range n.kids {
		if e.to == "" {
			continue
		}
		if !e.inPlace {
			// A part of the value: counted on its own, from the top.
			if _, err := c.partOf(e.to); err != nil {
				return 0, err
			}
			continue
		}
		k, err := c.applied(e.to)
		if err != nil {
			return 0, err
		}
		total += k
		if total > MaxApplied {
			return 0, fmt.Errorf("checking one value against it would apply more than %d subschemas (anyOf, oneOf, allOf and $ref multiply them, from %s): simplify it", MaxApplied, ptr)
		}
	}
	c.memo[ptr] = total
	return total, nil
}

// partOf counts a schema applied to a part of the value, on a path of its
// own: a $ref back to a schema of the value above it is the next level of
// a tree, not a loop.
func (c *counter) partOf(ptr string) (int, error) {
	saved := c.onPath
	c.onPath = map[string]bool{}
	defer func() { c.onPath = saved }()
	return c.applied(ptr)
}
