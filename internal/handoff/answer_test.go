package handoff

import (
	"strings"
	"testing"
)

// TestAnswer: an answer keeps its first bytes (never half a character),
// says what it did not keep, and passes its hard bound at the piece that
// goes over it, which it does not count as shown.
func TestAnswer(t *testing.T) {
	tests := []struct {
		name       string
		keep, hard int
		pieces     []string
		want       string
		passed     bool
	}{
		{"short", 10, 100, []string{"hello ", "world"}, "hello worl\n\n[answer cut: mm keeps the first 10 bytes of an answer; 1 bytes more was shown, not kept]", false},
		{"whole", 20, 100, []string{"hello ", "world"}, "hello world", false},
		{"not half an é", 3, 100, []string{"aéé"}, "aé\n\n[answer cut: mm keeps the first 3 bytes of an answer; 2 bytes more was shown, not kept]", false},
		{"at the hard bound", 4, 8, []string{"1234", "5678"}, "1234\n\n[answer cut: mm keeps the first 4 bytes of an answer; 4 bytes more was shown, not kept]", false},
		{"past it", 4, 8, []string{"1234", "5678", "9"}, "1234\n\n[answer cut: mm keeps the first 4 bytes of an answer; 4 bytes more was shown, not kept]", true},
		{"MiB", MaxKeptAnswer, MaxStreamedAnswer, []string{strings.Repeat("x", MaxKeptAnswer+3<<19)}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAnswer(tt.keep, tt.hard)
			ok := true
			for _, p := range tt.pieces {
				ok = a.Write(p) && ok
			}
			got := a.String()
			if tt.name == "MiB" {
				want := "\n\n[answer cut: mm keeps the first 4 MiB of an answer; 1.5 MiB more was shown, not kept]"
				if len(got) != MaxKeptAnswer+len(want) || !strings.HasSuffix(got, want) {
					t.Errorf("kept %d bytes ending %q", len(got), got[len(got)-100:])
				}
				return
			}
			if got != tt.want || a.Passed() != tt.passed || ok == tt.passed {
				t.Errorf("String %q, Passed %v, Write ok %v; want %q, %v", got, a.Passed(), ok, tt.want, tt.passed)
			}
		})
	}
	want := "expert's answer passed 64 MiB, the most mm shows of one answer: mm ended the hand-off"
	if got := (&AnswerTooLongError{Agent: "expert", Limit: MaxStreamedAnswer}).Error(); got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}
