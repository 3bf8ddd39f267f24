package a2aconn

import (
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
)

// Text is the text of parts, one after the other; files and data are not
// text and are left out. The SDK decodes a part as a value and a caller may
// build one as a pointer: both are read.
func Text(parts a2a.ContentParts) string {
	var b strings.Builder
	for _, p := range parts {
		switch tp := p.(type) {
		case a2a.TextPart:
			b.WriteString(tp.Text)
		case *a2a.TextPart:
			b.WriteString(tp.Text)
		}
	}
	return b.String()
}
