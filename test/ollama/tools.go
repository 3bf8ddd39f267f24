//go:build tools

// Package tools keeps github.com/gen2brain/malgo in go.mod: build.sh takes
// miniaudio.h from its module (Ollama's zip leaves out llama.cpp's vendor/).
package tools

import _ "github.com/gen2brain/malgo"
