package userconfig

import "testing"

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"XDG_CONFIG_HOME", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/home/me"}, "/x/mm"},
		{"HOME", map[string]string{"HOME": "/home/me"}, "/home/me/.config/mm"},
		{"a relative XDG_CONFIG_HOME is ignored", map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/home/me"}, "/home/me/.config/mm"},
		{"no absolute HOME", map[string]string{"HOME": "rel"}, ""},
		{"nothing", map[string]string{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Dir(env(tc.env)); got != tc.want {
				t.Errorf("Dir = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestShow(t *testing.T) {
	home := env(map[string]string{"HOME": "/home/me"})
	for _, tc := range []struct {
		path string
		env  func(string) string
		want string
	}{
		{"/home/me/.config/mm/agent.yaml", home, "~/.config/mm/agent.yaml"},
		{"/home/me", home, "~"},
		{"/home/meagain/x", home, "/home/meagain/x"},
		{"/etc/mm/agent.yaml", home, "/etc/mm/agent.yaml"},
		{"/home/me/x", env(map[string]string{}), "/home/me/x"},
		{"rel/x", home, "rel/x"},
	} {
		if got := Show(tc.path, tc.env); got != tc.want {
			t.Errorf("Show(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
