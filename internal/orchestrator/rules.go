package orchestrator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/permissions"
)

// The permission rules (permissions: in the configuration, and the
// "always" answers of the session) are read after a call's preToolCall
// hooks and before its consent question, as the hooks reference orders
// them: a hook's deny has refused the call already, and a rule's allow
// only spares the question, as a hook's allow does. A deny rule refuses
// under --yolo too: yolo skips the question, not a rule the person wrote.

// ruleCall is a call as the rules read it: its tool, and what its tool
// decoded — bash's command whole, a file tool's path, ask_agent's agent,
// load_skill's skill.
type ruleCall = permissions.Call

// checkRules reads c against the rules: refusal is the output the model
// reads for a call a deny rule names, "" when none does; allowed says the
// allow rules cover it.
func (s *Session) checkRules(c ruleCall) (refusal string, allowed bool) {
	s.mu.Lock()
	rules := permissions.Rules{Allow: s.allowRules, Deny: s.cfg.Permissions.Deny}
	s.mu.Unlock()
	d := rules.Decide(c, s.places)
	if d.Deny != nil {
		return fmt.Sprintf("[refused: the rule %q in %s denies this call]", d.Deny.String(), s.configName()), false
	}
	return "", d.Allowed
}

// configName is the configuration file as the banner names it.
func (s *Session) configName() string {
	return s.cfg.Shown(s.cwd)
}

// alwaysFor is what an "always" answer to c adds: for bash, the prefix of
// each command in it ("bash: go test *"); for another tool, the whole
// tool, as its rule "<tool>". The offer is nil when no rule can cover the
// command without covering more of bash than its prefixes.
func (s *Session) alwaysFor(c ruleCall) ([]permissions.Rule, *AlwaysOffer) {
	var rules []permissions.Rule
	var label string
	if c.Tool == "bash" {
		rs, ok := permissions.Prefixes(c.Subject)
		if !ok {
			return nil, nil
		}
		var quoted []string
		for _, r := range rs {
			quoted = append(quoted, strconv.Quote(r.Prefix()))
		}
		rules, label = rs, andJoin(quoted)
	} else {
		r, err := permissions.Parse(c.Tool, nil)
		if err != nil {
			return nil, nil
		}
		rules, label = []permissions.Rule{r}, c.Tool
	}
	offer := &AlwaysOffer{For: label}
	if s.depth == 0 && s.cfg.Abs != "" {
		// An asked agent's person is its asking agent's: its rules are
		// written in its own file by hand.
		offer.SaveTo = s.configName()
	}
	return rules, offer
}

// allowAlso adds rules to the session's allow rules (an "always" answer).
func (s *Session) allowAlso(rules []permissions.Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.allowRules = append(s.allowRules, rules...)
}

// saveAllow appends rules to permissions.allow in the configuration file
// (a saved "always" answer) and says so, or says why it could not.
func (s *Session) saveAllow(rules []permissions.Rule) {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	texts := make([]string, len(rules))
	for i, r := range rules {
		texts[i] = r.String()
	}
	quoted := make([]string, len(texts))
	for i, t := range texts {
		quoted[i] = strconv.Quote(t)
	}
	if err := mmconfigs.AppendAllowRules(s.cfg.Abs, texts); err != nil {
		s.sink.Emit(Notice{Kind: NoticeWarning, Text: fmt.Sprintf("could not save %s to %s: %v (it holds for this session)", andJoin(quoted), s.configName(), err)})
		return
	}
	s.sink.Emit(Notice{Kind: NoticeInfo, Text: fmt.Sprintf("saved %s to permissions.allow in %s", andJoin(quoted), s.configName())})
}

// andJoin is items as a sentence lists them: "a", "a and b", "a, b and c".
func andJoin(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
