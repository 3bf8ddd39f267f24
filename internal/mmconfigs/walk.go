package mmconfigs

import "path/filepath"

// Walk loads the configuration at path and, recursively, every agent it may
// ask by its file (not those by command or over ssh: there is no file here
// to read), each file once (so cycles are fine), in depth-first order.
// With compile, each file's JSON Schemas are compiled too, one that does
// not compile being the file's error (CompileSchemas); nil leaves them
// read and checked only. visit gets each file's configuration or its
// error. Walk reports whether every file loaded.
func Walk(path, cwd string, getenv func(string) string, compile Compiler, visit func(path string, c *Config, err error)) bool {
	seen := map[string]bool{}
	ok := true
	var walk func(p string)
	walk = func(p string) {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, p)
		}
		if seen[abs] {
			return
		}
		seen[abs] = true
		c, err := Load(p, cwd, getenv)
		if err == nil && compile != nil {
			err = c.CompileSchemas(compile)
		}
		if err != nil {
			c = nil
		}
		visit(p, c, err)
		if err != nil {
			ok = false
			return
		}
		for _, name := range c.AgentNames() {
			// An agent by command or over ssh has no file here to read.
			if a := c.Agents[name]; a.Kind == AgentFile {
				walk(DisplayPath(a.Config, cwd))
			}
		}
	}
	walk(path)
	return ok
}
