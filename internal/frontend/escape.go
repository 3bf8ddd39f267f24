package frontend

// EscapeLen is the length of the terminal escape sequence s starts with (s
// begins with ESC): a CSI sequence up to its final byte, else the ESC and
// the byte after it. The front ends that wrap styled text skip it as
// taking no columns.
func EscapeLen(s string) int {
	if len(s) > 1 && s[1] == '[' {
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	}
	return min(2, len(s))
}
