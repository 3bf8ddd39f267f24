package handoff

import "testing"

func TestAppendContexts(t *testing.T) {
	tests := []struct {
		text     string
		contexts []string
		want     string
	}{
		{"output", nil, "output"},
		{"output", []string{"note"}, "output\n\n[context added by a hook]\nnote"},
		{"q", []string{"one", " \n", "two\nlines"}, "q\n\n[context added by a hook]\none\n\n[context added by a hook]\ntwo\nlines"},
		{"", []string{"c"}, "\n\n[context added by a hook]\nc"},
	}
	for _, tt := range tests {
		if got := AppendContexts(tt.text, tt.contexts); got != tt.want {
			t.Errorf("AppendContexts(%q, %q)\n got %q\nwant %q", tt.text, tt.contexts, got, tt.want)
		}
	}
}
