package frontend

// UseColour says whether a terminal may get colours and markdown, given
// the environment: not when NO_COLOR is set to anything but "" (no-color.org)
// nor when TERM is "dumb".
func UseColour(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}
