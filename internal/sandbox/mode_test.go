package sandbox

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"off", "off", ""},
		{"workspace", "workspace", ""},
		{"read-only", "read-only", ""},
		{"readonly", "", `"readonly" is not a sandbox mode: use off, workspace, read-only`},
		{"", "", `"" is not a sandbox mode: use off, workspace, read-only`},
	} {
		m, err := ParseMode(tc.in)
		if string(m) != tc.want || errText(err) != tc.err {
			t.Errorf("ParseMode(%q) = %q, %q; want %q, %q", tc.in, m, errText(err), tc.want, tc.err)
		}
	}
	for _, tc := range []struct {
		in   string
		want bool
		err  string
	}{
		{"on", true, ""},
		{"off", false, ""},
		{"true", false, `"true" is not a network setting: use on or off`},
	} {
		on, err := ParseNetwork(tc.in)
		if on != tc.want || errText(err) != tc.err {
			t.Errorf("ParseNetwork(%q) = %v, %q; want %v, %q", tc.in, on, errText(err), tc.want, tc.err)
		}
	}
}

// An asked agent runs at least as strictly as its asker: its own file may
// tighten the ceiling, never loosen it.
func TestTighten(t *testing.T) {
	for _, tc := range []struct {
		own     Spec
		ceiling *Ceiling
		mode    Mode
		network bool
	}{
		{Spec{Mode: Off, Network: true}, nil, Off, true},
		{Spec{Mode: Off, Network: true}, &Ceiling{Mode: Workspace, Network: true}, Workspace, true},
		{Spec{Mode: Off, Network: true}, &Ceiling{Mode: Workspace, Network: false}, Workspace, false},
		{Spec{Mode: ReadOnly, Network: true}, &Ceiling{Mode: Workspace, Network: true}, ReadOnly, true},
		{Spec{Mode: Workspace, Network: false}, &Ceiling{Mode: Off, Network: true}, Workspace, false},
		{Spec{Mode: Workspace, Network: true}, &Ceiling{Mode: ReadOnly, Network: true}, ReadOnly, true},
	} {
		got := tc.own.Tighten(tc.ceiling)
		if got.Mode != tc.mode || got.Network != tc.network {
			t.Errorf("%+v under %+v = %s, network %v; want %s, network %v", tc.own, tc.ceiling, got.Mode, got.Network, tc.mode, tc.network)
		}
	}
}

func TestIntersect(t *testing.T) {
	for _, tc := range []struct {
		a, b, want []string
	}{
		{[]string{"/p", "/tmp"}, []string{"/p", "/tmp"}, []string{"/p", "/tmp"}},
		{[]string{"/p/sub", "/tmp"}, []string{"/p"}, []string{"/p/sub"}},
		{[]string{"/q"}, []string{"/p"}, nil},
		{[]string{"/"}, []string{"/p", "/tmp"}, []string{"/p", "/tmp"}},
		{[]string{"/pp"}, []string{"/p"}, nil},
	} {
		if got := intersect(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("intersect(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCeilingRoundTrip(t *testing.T) {
	c := Ceiling{Mode: Workspace, Network: false, Write: []string{"/home/me/p", "/tmp"}}
	got, err := ParseCeiling(c.Encode())
	if err != nil || got.Mode != c.Mode || got.Network != c.Network || !slices.Equal(got.Write, c.Write) {
		t.Fatalf("ParseCeiling(%s) = %+v, %v", c.Encode(), got, err)
	}
	if got := c.Encode(); got != `{"mode":"workspace","network":false,"write":["/home/me/p","/tmp"]}` {
		t.Errorf("Encode = %s", got)
	}
	for in, want := range map[string]string{
		`{"mode":"wide","network":true}`:                    `"wide" is not a sandbox mode: use off, workspace, read-only`,
		`{"mode":"off","network":true,"extra":1}`:           `not a sandbox ceiling: json: unknown field "extra"`,
		`{"mode":"workspace","network":true,"write":["p"]}`: `"p" is not an absolute folder`,
		`nope`: `not a sandbox ceiling: invalid character 'o' in literal null (expecting 'u')`,
	} {
		if _, err := ParseCeiling(in); errText(err) != want {
			t.Errorf("ParseCeiling(%s) = %q, want %q", in, errText(err), want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
