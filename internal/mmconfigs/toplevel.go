package mmconfigs

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// topLevel is what the top-level keys of a configuration are read into:
// the configuration, and system: and systemFile:, settled once every key
// is read (one or the other).
type topLevel struct {
	c                  *Config
	system, systemFile string
}

// topKeys are the keys of a configuration, in the order the reference
// gives them.
var topKeys = keyTable[*topLevel]{
	{"model", func(t *topLevel, k, v *yaml.Node) error {
		t.c.modelLine = k.Line
		return decodeScalar(v, &t.c.Model, "a string like ollama/qwen3:8b")
	}},
	{"description", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.c.Description, "a string") }},
	{"system", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.system, "a string") }},
	{"systemFile", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.systemFile, "a path") }},
	{"tools", func(t *topLevel, _, v *yaml.Node) error {
		// Each entry reports its own place ("tools[2]: …").
		if err := t.c.parseTools(v); err != nil {
			return placed{err}
		}
		return nil
	}},
	{"mcpServers", func(t *topLevel, _, v *yaml.Node) error { return t.c.parseMCPServers(v) }},
	{"mmConfigs", func(t *topLevel, _, v *yaml.Node) error { return t.c.parseAgents(v) }},
	{"structuredOutput", func(t *topLevel, k, v *yaml.Node) error {
		t.c.structuredOutputLine = k.Line
		return t.c.parseStructuredOutput(v)
	}},
	{"providers", func(t *topLevel, _, v *yaml.Node) error { return t.c.parseProviders(v) }},
	{"hooks", func(t *topLevel, _, v *yaml.Node) error {
		if err := t.c.Hooks.UnmarshalYAML(v); err != nil {
			return err
		}
		// Hooks report their own place ("hooks.preToolCall[0]: …").
		if err := t.c.Hooks.Resolve(t.c.Dir); err != nil {
			return placed{err}
		}
		return nil
	}},
	{"permissions", func(t *topLevel, _, v *yaml.Node) error {
		// Rules report their own place ("permissions.allow[1]: …").
		if err := t.c.parsePermissions(v); err != nil {
			return placed{err}
		}
		return nil
	}},
	{"yolo", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.c.Yolo, "true or false") }},
	{"displayHooks", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.c.DisplayHooks, "true or false") }},
	{"displayCommands", func(t *topLevel, _, v *yaml.Node) error {
		return decodeScalar(v, &t.c.DisplayCommands, "true or false")
	}},
	{"maxSteps", func(t *topLevel, _, v *yaml.Node) (err error) {
		t.c.MaxSteps, err = decodeInt(v, 1)
		return err
	}},
	{"maxParallelTools", func(t *topLevel, _, v *yaml.Node) (err error) {
		t.c.MaxParallelTools, err = decodeInt(v, 1)
		return err
	}},
	{"maxAskDepth", func(t *topLevel, _, v *yaml.Node) (err error) {
		t.c.MaxAskDepth, err = decodeInt(v, 0)
		if err == nil && t.c.MaxAskDepth > MaxAskDepthCap {
			err = fmt.Errorf("%d is over mm's cap of %d (each level is one more mm process): give %d or less", t.c.MaxAskDepth, MaxAskDepthCap, MaxAskDepthCap)
		}
		return err
	}},
	{"askTimeout", func(t *topLevel, _, v *yaml.Node) (err error) {
		t.c.AskTimeout, err = decodeDuration(v)
		return err
	}},
	{"skills", func(t *topLevel, _, v *yaml.Node) error { return t.c.parseSkills(v) }},
	{"projectDocs", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.c.ProjectDocs, "true or false") }},
	{"contextWindow", func(t *topLevel, _, v *yaml.Node) (err error) {
		t.c.ContextWindow, err = decodeInt(v, MinContextWindow)
		return err
	}},
	{"compressAt", func(t *topLevel, _, v *yaml.Node) (err error) {
		t.c.CompressAt, err = decodeFraction(v, MinCompressAt, MaxCompressAt)
		return err
	}},
	{"persist", func(t *topLevel, _, v *yaml.Node) error { return decodeScalar(v, &t.c.Persist, "true or false") }},
	{"sandbox", func(t *topLevel, _, v *yaml.Node) error { return t.c.parseSandbox(v) }},
}
