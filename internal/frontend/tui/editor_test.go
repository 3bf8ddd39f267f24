package tui

import "testing"

// typing turns a string into keys: runes, and a few named keys in braces.
func typing(s string) []key {
	named := map[string]keyKind{
		"{left}": keyLeft, "{right}": keyRight, "{home}": keyHome, "{end}": keyEnd,
		"{bs}": keyBackspace, "{del}": keyDelete, "{up}": keyUp, "{down}": keyDown,
		"{^U}": keyCtrlU, "{^K}": keyCtrlK, "{^W}": keyCtrlW,
	}
	var keys []key
	for len(s) > 0 {
		matched := false
		for name, kind := range named {
			if len(s) >= len(name) && s[:len(name)] == name {
				keys = append(keys, key{kind: kind})
				s = s[len(name):]
				matched = true
				break
			}
		}
		if !matched {
			r := []rune(s)[0]
			keys = append(keys, key{kind: keyRune, r: r})
			s = s[len(string(r)):]
		}
	}
	return keys
}

func TestEditor(t *testing.T) {
	tests := []struct {
		name    string
		history []string
		keys    string
		want    string
		pos     int
	}{
		{"type", nil, "hello", "hello", 5},
		{"insert in the middle", nil, "hllo{left}{left}{left}e", "hello", 2},
		{"home and end", nil, "ello{home}h{end}!", "hello!", 6},
		{"backspace", nil, "helo{bs}lo", "hello", 5},
		{"backspace at the start does nothing", nil, "ab{home}{bs}", "ab", 0},
		{"delete", nil, "hxello{home}{right}{del}", "hello", 1},
		{"delete at the end does nothing", nil, "ab{del}", "ab", 2},
		{"ctrl-u deletes to the start", nil, "say hello{left}{left}{left}{left}{left}{^U}", "hello", 0},
		{"ctrl-k deletes to the end", nil, "hello world{home}{right}{right}{right}{right}{right}{^K}", "hello", 5},
		{"ctrl-w deletes a word", nil, "one two  {^W}", "one ", 4},
		{"left and right stop at the ends", nil, "ab{left}{left}{left}{right}{right}{right}c", "abc", 3},
		{"emoji are one rune", nil, "a🤖b{left}{bs}", "ab", 1},
		{"backspace removes e and its combining accent", nil, "cafe\u0301{bs}", "caf", 3},
		{"backspace removes an emoji and its skin tone", nil, "a👍🏽{bs}", "a", 1},
		{"backspace removes a whole family", nil, "a👨\u200d👩\u200d👧\u200d👦{bs}", "a", 1},
		{"backspace removes ⚙ and its variation selector", nil, "x⚙\ufe0f{bs}", "x", 1},
		{"left steps over a cluster", nil, "e\u0301x{left}{left}y", "ye\u0301x", 1},
		{"right steps over a cluster", nil, "👍🏽x{home}{right}y", "👍🏽yx", 3},
		{"delete removes a cluster", nil, "a👍🏽b{home}{right}{del}", "ab", 1},
		{"up shows the last line sent", []string{"first", "second"}, "{up}", "second", 6},
		{"up twice", []string{"first", "second"}, "{up}{up}", "first", 5},
		{"up stops at the oldest", []string{"first", "second"}, "{up}{up}{up}", "first", 5},
		{"down comes back to the draft", []string{"first", "second"}, "dra{up}{up}{down}{down}ft", "draft", 5},
		{"down at the draft does nothing", []string{"first"}, "x{down}", "x", 1},
		{"a history line can be edited", []string{"first"}, "{up}{bs}{bs}{bs}", "fi", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e editor
			for _, h := range tt.history {
				e.set(h)
				e.submit()
			}
			for _, k := range typing(tt.keys) {
				if !e.edit(k) {
					t.Fatalf("key %v not handled", k)
				}
			}
			if e.String() != tt.want || e.pos != tt.pos {
				t.Errorf("got %q at %d, want %q at %d", e.String(), e.pos, tt.want, tt.pos)
			}
		})
	}
}

func TestEditorSubmit(t *testing.T) {
	var e editor
	for _, line := range []string{"one", "one", "  ", "two"} {
		e.set(line)
		if got := e.submit(); got != line {
			t.Errorf("submit() = %q, want %q", got, line)
		}
		if !e.empty() {
			t.Errorf("the line is %q after submit, want it empty", e.String())
		}
	}
	want := []string{"one", "two"} // no blank lines, no repeats in a row
	if len(e.history) != len(want) || e.history[0] != want[0] || e.history[1] != want[1] {
		t.Errorf("history = %q, want %q", e.history, want)
	}
}

func TestEditorView(t *testing.T) {
	tests := []struct {
		name  string
		keys  string
		width int
		want  string
		col   int
	}{
		{"fits", "hello", 10, "hello", 5},
		{"scrolls to keep the cursor in sight", "abcdefghij", 5, "ghij", 4},
		{"cursor back at the start", "abcdefghij{home}", 5, "abcde", 0},
		{"wide runes", "日本語です", 6, "です", 4},
		{"clusters scroll out whole", "👍🏽👍🏽👍🏽", 5, "👍🏽👍🏽", 4},
		{"combining marks take no column", "e\u0301e\u0301e\u0301", 5, "e\u0301e\u0301e\u0301", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e editor
			for _, k := range typing(tt.keys) {
				e.edit(k)
			}
			got, col := e.view(tt.width)
			if got != tt.want || col != tt.col {
				t.Errorf("view(%d) = %q, %d; want %q, %d", tt.width, got, col, tt.want, tt.col)
			}
		})
	}
}
