package permissions

import "testing"

// FuzzCommand: any command reads without a panic; what "always" offers for
// it covers it; and an allow never covers a line a deny names.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{"go test ./...", "go test && rm -rf ~", "echo $(rm -rf x)", "f() { rm -rf ~; }; f",
		"bash -c 'bash -c \"rm -rf ~\"'", "x=1 go test > out", "'unterminated", "cat <<EOF\nrm -rf ~\nEOF", "find . -exec rm -rf {} +"} {
		f.Add(s)
	}
	rs := Rules{}
	for _, text := range []string{"bash: go test *", "bash: echo *", "bash: cat *"} {
		r, _ := Parse(text, nil)
		rs.Allow = append(rs.Allow, r)
	}
	deny, _ := Parse("bash: rm -rf *", nil)
	rs.Deny = []Rule{deny}
	f.Fuzz(func(t *testing.T, command string) {
		c := Call{Tool: "bash", Subject: command}
		d := rs.Decide(c, Places{})
		if d.Deny != nil && d.Allowed {
			t.Errorf("%q: denied and allowed", command)
		}
		if rules, ok := Prefixes(command); ok && !(Rules{Allow: rules}).Decide(c, Places{}).Allowed {
			t.Errorf("%q: the prefixes %v do not cover it", command, rules)
		}
	})
}
