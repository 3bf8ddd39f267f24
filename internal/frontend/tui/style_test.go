package tui

import "testing"

// TestStyleNoColour: without colour (NO_COLOR) the window keeps its
// attributes and drops its colours.
func TestStyleNoColour(t *testing.T) {
	tests := []struct {
		st            style
		colour, plain string
	}{
		{stylePlain, "", ""},
		{styleDim, sgrDim, sgrDim},
		{styleQuestion, sgrBold, sgrBold},
		{styleFailed, sgrRed, ""},
		{styleAsk, sgrQuestion, sgrBold},
	}
	for _, tt := range tests {
		if got := tt.st.sgr(true); got != tt.colour {
			t.Errorf("style %d with colour: %q, want %q", tt.st, got, tt.colour)
		}
		if got := tt.st.sgr(false); got != tt.plain {
			t.Errorf("style %d without colour: %q, want %q", tt.st, got, tt.plain)
		}
	}
}
