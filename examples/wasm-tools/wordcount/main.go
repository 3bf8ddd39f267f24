// Command wordcount is a wasm tool, built as a WebAssembly module (see
// ../build.sh): it counts the lines, words and characters of a file, or of
// a text it is given. mm writes the tool's arguments on its stdin as one
// JSON object and gives the model what it writes on stdout. Its entry gives
// it `read: [docs]`: the docs folder, read-only, is all it can see.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// input is the tool's arguments, as its inputSchema in agent.yaml says.
type input struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail("cannot read the arguments: %v", err)
	}
	name, text := "the text", in.Text
	if in.Path != "" {
		b, err := os.ReadFile(in.Path)
		if err != nil {
			fail("cannot read %s: %v (the tool sees the docs folder only)", in.Path, err)
		}
		if !utf8.Valid(b) {
			fail("%s is not text", in.Path)
		}
		name, text = in.Path, string(b)
	}
	lines := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines++
	}
	fmt.Printf("%s: %d lines, %d words, %d characters\n", name, lines, len(strings.Fields(text)), utf8.RuneCountInString(text))
}

// fail writes why on stderr and exits 1: mm shows the model the exit code
// and the start of stderr.
func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
