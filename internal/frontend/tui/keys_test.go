package tui

import (
	"slices"
	"testing"
)

func TestDecoder(t *testing.T) {
	r := func(c rune) key { return key{kind: keyRune, r: c} }
	k := func(kind keyKind) key { return key{kind: kind} }
	tests := []struct {
		name  string
		reads []string
		want  []key
	}{
		{"letters and enter", []string{"hi\r"}, []key{r('h'), r('i'), k(keyEnter)}},
		{"utf-8", []string{"é🤖"}, []key{r('é'), r('🤖')}},
		{"utf-8 cut between reads", []string{"\xf0\x9f", "\xa4\x96"}, []key{r('🤖')}},
		{"arrows", []string{"\x1b[A\x1b[B\x1b[C\x1b[D"}, []key{k(keyUp), k(keyDown), k(keyRight), k(keyLeft)}},
		{"application-mode arrows", []string{"\x1bOA\x1bOH\x1bOF"}, []key{k(keyUp), k(keyHome), k(keyEnd)}},
		{"home end delete page", []string{"\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[3~\x1b[5~\x1b[6~"},
			[]key{k(keyHome), k(keyEnd), k(keyHome), k(keyEnd), k(keyDelete), k(keyPgUp), k(keyPgDn)}},
		{"modifiers ignored", []string{"\x1b[1;5C"}, []key{k(keyRight)}},
		{"sequence cut between reads", []string{"\x1b[", "5~"}, []key{k(keyPgUp)}},
		{"lone escape", []string{"\x1b"}, []key{k(keyEscape)}},
		{"escape then a letter", []string{"\x1bx"}, []key{k(keyEscape), r('x')}},
		{"control keys", []string{"\x03\x04\x15\x0b\x17\x0c\x01\x05\x7f\x08"},
			[]key{k(keyCtrlC), k(keyCtrlD), k(keyCtrlU), k(keyCtrlK), k(keyCtrlW), k(keyCtrlL), k(keyHome), k(keyEnd), k(keyBackspace), k(keyBackspace)}},
		{"unknown controls and sequences dropped", []string{"\x07a\x1b[99xb"}, []key{r('a'), r('b')}},
		{"bracketed paste: line breaks are spaces", []string{"\x1b[200~a\r\nb\nc\x1b[201~\r"},
			[]key{r('a'), r(' '), r('b'), r(' '), r('c'), k(keyEnter)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d decoder
			var got []key
			for _, s := range tt.reads {
				got = append(got, d.feed([]byte(s))...)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("keys\n got %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestDecoderBoundsAnEndlessSequence(t *testing.T) {
	var d decoder
	d.feed([]byte("\x1b["))
	for range 1000 {
		if keys := d.feed([]byte("1;2;3;4;5;6;7;8;9;")); len(keys) != 0 {
			t.Fatalf("parameter bytes decoded as keys: %+v", keys)
		}
	}
	if len(d.pending) > maxSequence {
		t.Fatalf("the decoder keeps %d bytes of an unfinished sequence, want at most %d", len(d.pending), maxSequence)
	}
	if keys := d.feed([]byte("1;2~x")); len(keys) != 1 || keys[0].kind != keyRune || keys[0].r != 'x' {
		t.Errorf("the rest of the sequence and its final byte are dropped, then x is a key; got %+v", keys)
	}
}
