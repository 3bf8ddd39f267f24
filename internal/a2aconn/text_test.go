package a2aconn

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
)

func TestText(t *testing.T) {
	tests := []struct {
		name  string
		parts a2a.ContentParts
		wire  string // when set, the parts as a peer sends them, decoded by the SDK
		want  string
	}{
		{name: "no parts", want: ""},
		{name: "one text", parts: a2a.ContentParts{a2a.TextPart{Text: "Paris."}}, want: "Paris."},
		{
			name:  "texts one after the other, nothing between",
			parts: a2a.ContentParts{a2a.TextPart{Text: "The capital "}, a2a.TextPart{Text: "is Paris.\n"}},
			want:  "The capital is Paris.\n",
		},
		{name: "a text built as a pointer", parts: a2a.ContentParts{&a2a.TextPart{Text: "Paris."}}, want: "Paris."},
		{
			name: "files and data left out",
			parts: a2a.ContentParts{
				a2a.FilePart{File: a2a.FileURI{URI: "https://example.com/map.png"}},
				a2a.TextPart{Text: "see "},
				a2a.DataPart{Data: map[string]any{"city": "Paris"}},
				a2a.TextPart{Text: "the map"},
			},
			want: "see the map",
		},
		{
			name: "as decoded from the wire",
			wire: `[{"kind":"text","text":"a"},{"kind":"data","data":{"n":1}},{"kind":"file","file":{"uri":"file:///x"}},{"kind":"text","text":"b"}]`,
			want: "ab",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := tt.parts
			if tt.wire != "" {
				if err := json.Unmarshal([]byte(tt.wire), &parts); err != nil {
					t.Fatalf("decoding %s: %v", tt.wire, err)
				}
			}
			if got := Text(parts); got != tt.want {
				t.Errorf("Text = %q, want %q", got, tt.want)
			}
		})
	}
}
