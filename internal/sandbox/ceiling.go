package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
)

// Ceiling is the loosest sandbox an asked agent may run under: its asker's.
// The asker hands it to the child mm it starts (the hidden flag
// --sandbox-ceiling); the child's own configuration and command line may
// only tighten it.
type Ceiling struct {
	Mode    Mode `json:"mode"`
	Network bool `json:"network"`
	// Write are the folders the asker's tools may write in, resolved; nil
	// when they mean nothing where the child runs (an mm over ssh): the
	// child keeps to its own workspace then.
	Write []string `json:"write,omitempty"`
}

// ParseCeiling reads a ceiling as Encode writes it. Unknown fields, a
// relative folder or an unknown mode are refused: the text comes from
// another process.
func ParseCeiling(s string) (Ceiling, error) {
	var c Ceiling
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Ceiling{}, fmt.Errorf("not a sandbox ceiling: %v", err)
	}
	if _, err := ParseMode(string(c.Mode)); err != nil {
		return Ceiling{}, err
	}
	for _, w := range c.Write {
		if !filepath.IsAbs(w) {
			return Ceiling{}, fmt.Errorf("%q is not an absolute folder", w)
		}
	}
	return c, nil
}

// Encode writes c for ParseCeiling.
func (c Ceiling) Encode() string {
	b, _ := json.Marshal(c) // plain strings and a bool: cannot fail
	return string(b)
}

// Remote is c for an mm on another machine: its folders are this machine's.
func (c Ceiling) Remote() Ceiling {
	c.Write = nil
	return c
}

// Tighten makes s at least as strict as c: the stricter mode, the network
// on only when both have it on. The folders s may write in are kept only
// where c allows writing too (tighten's intersection, when the Policy is
// made).
func (s Spec) Tighten(c *Ceiling) Spec {
	if c == nil {
		return s
	}
	s.Mode = s.Mode.Stricter(c.Mode)
	s.Network = s.Network && c.Network
	if c.Mode != Off && c.Write != nil {
		s.bound = append([]string(nil), c.Write...)
	}
	return s
}

// intersect keeps of the folders in a what is also under a folder of b:
// a folder of a under one of b stays, a folder of b under one of a stands
// for it.
func intersect(a, b []string) []string {
	var out []string
	add := func(p string) {
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	for _, x := range a {
		for _, y := range b {
			switch {
			case within(x, y):
				add(x)
			case within(y, x):
				add(y)
			}
		}
	}
	return out
}
