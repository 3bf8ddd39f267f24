package strictyaml

// controlMessage is yaml.v3's error for a character YAML does not allow
// in a file, given without a position.
const controlMessage = "control characters are not allowed"

// firstControl is the line and column (in runes, from 1) of the first
// character of data that YAML does not allow: a C0 control but tab, line
// feed and carriage return, DEL, a C1 control but NEL, U+FFFE and U+FFFF
// (the YAML 1.2 spec's c-printable); 0, 0 when there is none.
func firstControl(data []byte) (line, col int) {
	line, col = 1, 0
	for _, r := range string(data) {
		col++
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r < 0x20 && r != '\t' && r != '\r', r == 0x7f, r >= 0x80 && r <= 0x9f && r != 0x85, r == 0xfffe, r == 0xffff:
			return line, col
		}
	}
	return 0, 0
}
