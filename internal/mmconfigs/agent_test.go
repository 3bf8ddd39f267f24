package mmconfigs

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestAgentForms(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "agent.yaml", `
mmConfigs:
  expert: agent.expert.yaml
  gemini:
    command: [gemini, --experimental-acp]
    description: Google's Gemini CLI
    env: {GEMINI_API_KEY: $MY_KEY}
    cwd: work
    startTimeout: 90s
  local:
    command: [./bin/agent, $MM_BIN, -acp]
  remote:
    ssh: me@build.lan
    config: agents/expert.yaml
    mm: ~/bin/mm
    sshArgs: [-p, "2222"]
    cwd: /srv/repo
    description: the build machine's expert
  short: {ssh: host, config: e.yaml}
  reviewer:
    a2a: http://127.0.0.1:9000/
    tokenEnv: REVIEWER_TOKEN
    description: reviews a change
`)
	c, err := Load("agent.yaml", dir, noenv)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Agent{
		"expert": {Kind: AgentFile, Config: filepath.Join(dir, "agent.expert.yaml")},
		"gemini": {Kind: AgentCommand, Command: []string{"gemini", "--experimental-acp"}, Description: "Google's Gemini CLI",
			Env: map[string]string{"GEMINI_API_KEY": "$MY_KEY"}, Cwd: filepath.Join(dir, "work"), StartTimeout: 90 * time.Second},
		"local": {Kind: AgentCommand, Command: []string{filepath.Join(dir, "bin/agent"), "$MM_BIN", "-acp"}},
		"remote": {Kind: AgentSSH, Host: "me@build.lan", Config: "agents/expert.yaml", MM: "~/bin/mm",
			SSHArgs: []string{"-p", "2222"}, Cwd: "/srv/repo", Description: "the build machine's expert"},
		"short":    {Kind: AgentSSH, Host: "host", Config: "e.yaml"},
		"reviewer": {Kind: AgentA2A, URL: "http://127.0.0.1:9000/", TokenEnv: "REVIEWER_TOKEN", Description: "reviews a change"},
	}
	if !reflect.DeepEqual(c.Agents, want) {
		t.Errorf("Agents\n got %#v\nwant %#v", c.Agents, want)
	}
	if got := c.Banner("v1", dir, Running{}); got != "mm v1 | config: agent.yaml | agents: expert, gemini, local, remote, reviewer, short | yolo: off" {
		t.Errorf("banner %q", got)
	}
	for k, s := range map[AgentKind]string{AgentFile: "file", AgentCommand: "command", AgentSSH: "ssh", AgentA2A: "a2a"} {
		if k.String() != s {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), s)
		}
	}
}

func TestAgentErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"neither", "mmConfigs:\n  x: {description: d}\n",
			`agent.yaml:2: mmConfigs: x: give command: (an ACP agent to start), ssh: (an mm on another host) or a2a: (an agent served over A2A)`},
		{"both", "mmConfigs:\n  x: {command: [a], ssh: h, config: c}\n",
			`agent.yaml:2: mmConfigs: x: command and ssh: give one or the other, not both`},
		{"command typo", "mmConfigs:\n  x:\n    command: [a]\n    evn: {A: b}\n",
			`agent.yaml:4: mmConfigs: x: unknown key "evn" (did you mean "env"?)`},
		{"ssh key on a command", "mmConfigs:\n  x:\n    command: [a]\n    sshArgs: [-v]\n",
			`agent.yaml:4: mmConfigs: x: unknown key "sshArgs" (known: command, env, cwd, description, startTimeout)`},
		{"env on ssh", "mmConfigs:\n  x:\n    ssh: h\n    config: c\n    env: {A: b}\n",
			`agent.yaml:5: mmConfigs: x: unknown key "env" (known: ssh, config, mm, sshArgs, cwd, description, startTimeout)`},
		{"ssh typo", "mmConfigs:\n  x:\n    ssh: h\n    confg: c\n",
			`agent.yaml:4: mmConfigs: x: unknown key "confg" (did you mean "config"?)`},
		{"empty command", "mmConfigs:\n  x: {command: []}\n",
			`agent.yaml:2: mmConfigs: x: command: must not be empty: give the program and its arguments, like [gemini, --experimental-acp]`},
		{"command a string", "mmConfigs:\n  x: {command: gemini --experimental-acp}\n",
			`agent.yaml:2: mmConfigs: x: command: want a list of words like [gemini, --experimental-acp], not "gemini --experimental-acp"`},
		{"blank program", "mmConfigs:\n  x: {command: [\" \", a]}\n",
			`agent.yaml:2: mmConfigs: x: command: the first word, the program, must not be empty`},
		{"command of maps", "mmConfigs:\n  x: {command: [{a: b}]}\n",
			`agent.yaml:2: mmConfigs: x: command: want a list of words like [gemini, --experimental-acp], not a list`},
		{"ssh without config", "mmConfigs:\n  x: {ssh: me@h}\n",
			`agent.yaml:2: mmConfigs: x: config: required with ssh: the path of the agent's configuration file on that host`},
		{"ssh empty", "mmConfigs:\n  x: {ssh: \"\", config: c}\n",
			`agent.yaml:2: mmConfigs: x: ssh: must not be empty`},
		{"ssh null", "mmConfigs:\n  x: {ssh: , config: c}\n",
			`agent.yaml:2: mmConfigs: x: ssh: want a host, [user@]host, not nothing`},
		{"ssh option as host", "mmConfigs:\n  x: {ssh: -oProxyCommand=x, config: c}\n",
			`agent.yaml:2: mmConfigs: x: ssh: "-oProxyCommand=x" is not a host: it starts with - (ssh options go under sshArgs)`},
		{"sshArgs a string", "mmConfigs:\n  x: {ssh: h, config: c, sshArgs: -v}\n",
			`agent.yaml:2: mmConfigs: x: sshArgs: want a list of ssh's arguments, like [-p, "2222"], not "-v"`},
		{"config a list", "mmConfigs:\n  x: {ssh: h, config: [a]}\n",
			`agent.yaml:2: mmConfigs: x: config: want the path of the agent's configuration file on that host, not a list`},
		{"env a list", "mmConfigs:\n  x: {command: [a], env: [A=b]}\n",
			`agent.yaml:2: mmConfigs: x: env: want a map of variable names to values, not a list`},
		{"cwd empty", "mmConfigs:\n  x: {command: [a], cwd: \"\"}\n",
			`agent.yaml:2: mmConfigs: x: cwd: must not be empty`},
		{"start timeout", "mmConfigs:\n  x: {command: [a], startTimeout: 0s}\n",
			`agent.yaml:2: mmConfigs: x: startTimeout: want a positive duration like 90s or 10m, not "0s"`},
		{"a list entry", "mmConfigs:\n  x: [a]\n",
			`agent.yaml:2: mmConfigs: x: want the path of the agent's configuration file, or a map with command:, ssh: or a2a:`},
		{"null entry", "mmConfigs:\n  x:\n",
			`agent.yaml:2: mmConfigs: x: want the path of the agent's configuration file, or a map with command:, ssh: or a2a:`},
		{"a2a and command", "mmConfigs:\n  x: {a2a: http://h/, command: [a]}\n",
			`agent.yaml:2: mmConfigs: x: a2a with command or ssh: an entry is one kind of agent, give one of them`},
		{"a2a not a URL", "mmConfigs:\n  x: {a2a: host:9000}\n",
			`agent.yaml:2: mmConfigs: x: a2a: "host:9000" is not an http:// or https:// URL with a host, like http://host:port/`},
		{"a2a empty", "mmConfigs:\n  x: {a2a: \"\"}\n",
			`agent.yaml:2: mmConfigs: x: a2a: must not be empty`},
		{"a2a typo", "mmConfigs:\n  x:\n    a2a: http://h/\n    tokenenv: T\n",
			`agent.yaml:4: mmConfigs: x: unknown key "tokenenv" (did you mean "tokenEnv"?)`},
		{"a2a with config", "mmConfigs:\n  x:\n    a2a: http://h/\n    config: c.yaml\n",
			`agent.yaml:4: mmConfigs: x: unknown key "config" (known: a2a, tokenEnv, description)`},
		{"tokenEnv empty", "mmConfigs:\n  x: {a2a: http://h/, tokenEnv: \"\"}\n",
			`agent.yaml:2: mmConfigs: x: tokenEnv: must not be empty`},
		{"key twice", "mmConfigs:\n  x:\n    command: [a]\n    command: [b]\n",
			`agent.yaml:4: mmConfigs.x: key "command" is given twice (first on line 3)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeConfig(t, dir, "agent.yaml", tt.body)
			_, err := Load("agent.yaml", dir, noenv)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Load error\n got: %v\nwant: %s", err, tt.want)
			}
		})
	}
}

func TestWalkSkipsAgentsWithoutFile(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "agent.yaml", "mmConfigs:\n  g: {command: [gemini]}\n  r: {ssh: h, config: not-here.yaml}\n  e: e.yaml\n")
	writeConfig(t, dir, "e.yaml", "")
	var seen []string
	ok := Walk("agent.yaml", dir, noenv, nil, func(p string, c *Config, err error) { seen = append(seen, p) })
	if !ok || !reflect.DeepEqual(seen, []string{"agent.yaml", "e.yaml"}) {
		t.Errorf("Walk ok=%v seen=%q", ok, seen)
	}
}
