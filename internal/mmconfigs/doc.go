// Package mmconfigs loads, validates and resolves mm's configuration files
// (agent.yaml, agent.expert.yaml, …) and the agents each may ask.
//
// Reading is strict: an unknown key, a wrong type or a bad value is an error
// naming the file and the key, so that a typo never passes silently. A
// configuration is data: nothing here starts a model, a tool or a process.
package mmconfigs
