package reference

import (
	"reflect"
	"testing"
)

// TestReferenceUnits: how the reference is cut into units — the preamble
// left out, a table's header and separator skipped, a row whole (an escaped
// pipe inside its cell), a paragraph cut into sentences, a list item whole,
// a fenced block on one line with its language, a repeated key numbered.
func TestReferenceUnits(t *testing.T) {
	const md = "# Title\n\nThe preamble. Not a unit.\n\n" +
		"## Some section\n\n" +
		"| Key | Value |\n|---|---|\n| `a` | `x` \\| `y` |\n| b c | two. Sentences. |\n\n" +
		"**An empty stdout is `{}`.** Every field is optional. A `context` of\nthe reply (see `x`). `0` = the default.\n\n" +
		"### Sub (more)\n\n- One item. Still one\n  item.\n- Two\n\n```text\n🪝 <n>. x\n  two\n```\n\nSub. Sub.\n"
	got, err := Units(md)
	if err != nil {
		t.Fatal(err)
	}
	want := []Unit{
		{ID: "some-section/a", Section: "Some section", Text: "| `a` | `x` \\| `y` |"},
		{ID: "some-section/b-c", Section: "Some section", Text: "| b c | two. Sentences. |"},
		{ID: "some-section/an-empty-stdout-is", Section: "Some section", Text: "**An empty stdout is `{}`.**"},
		{ID: "some-section/every-field-is-optional", Section: "Some section", Text: "Every field is optional."},
		{ID: "some-section/a-context-of-the-reply-see-x", Section: "Some section", Text: "A `context` of the reply (see `x`)."},
		{ID: "some-section/0-the-default", Section: "Some section", Text: "`0` = the default."},
		{ID: "sub/one-item-still-one-item", Section: "Sub (more)", Text: "One item. Still one item."},
		{ID: "sub/two", Section: "Sub (more)", Text: "Two"},
		{ID: "sub/block-n-x", Section: "Sub (more)", Text: "🪝 <n>. x ↵   two", Lang: "text"},
		{ID: "sub/sub", Section: "Sub (more)", Text: "Sub."},
		{ID: "sub/sub-2", Section: "Sub (more)", Text: "Sub."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("units\n got %#v\nwant %#v", got, want)
	}
	if got := Cells("| `fail` \\| `warn` | b |"); !reflect.DeepEqual(got, []string{"`fail` \\| `warn`", "b"}) {
		t.Errorf("Cells: %q", got)
	}
	if _, err := Units("## S\n\n```\nopen\n"); err == nil {
		t.Error("an unclosed block: no error")
	}
}

// TestReferenceIndexErrors: a line of rows.tsv that names nothing, or not
// in the index's form, is refused with its line number.
func TestReferenceIndexErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a/b\thooks TestX", `rows.tsv:1: 2 fields, want 3 (id, held by, text) separated by tabs`},
		{"# c\na/b\t\tt", `rows.tsv:2: "" is neither "<package dir> <TestName>", "gap: …" nor "none: …"`},
		{"a/b\thooks NotATest\tt", `rows.tsv:1: "hooks NotATest" is neither "<package dir> <TestName>", "gap: …" nor "none: …"`},
		{"a/b\tgap:\tt", `rows.tsv:1: "gap:" is neither "<package dir> <TestName>", "gap: …" nor "none: …"`},
	}
	for _, tt := range tests {
		if _, err := ParseIndex(tt.src); err == nil || err.Error() != tt.want {
			t.Errorf("%q: error %v, want %s", tt.src, err, tt.want)
		}
	}
	rows, err := ParseIndex("a/b\thooks TestX/sub; gap: more; none: why\tthe text\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{{ID: "a/b", Held: []Holder{{"hooks", "TestX/sub"}}, Gaps: []string{"more"}, Notes: []string{"why"}, Text: "the text", Line: 1}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %#v", rows)
	}
}
