package frontend

import "testing"

func TestUseColour(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, true},
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"NO_COLOR": "1"}, false},
		{map[string]string{"NO_COLOR": ""}, true},
		{map[string]string{"TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		if got := UseColour(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("UseColour(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}
