// Package wasm runs WebAssembly modules — WASI preview 1 commands, such as
// Go programs built with GOOS=wasip1 GOARCH=wasm — in a sandbox, for mm's
// wasm hooks and its wasm tools.
//
// A module sees its stdin, writes its stdout (at most hooks.MaxStdout bytes,
// or the limit its run gives) and stderr, reads the environment it is given
// and nothing else, the real clock, a sleep that ends with the run, and the
// system's secure random source. Its files are the folders a run names, mounted under their own
// name through os.Root, so no path — "..", an absolute path, a symbolic
// link — reaches outside them; read folders refuse every change. It has no
// network and at most 256 MiB of linear memory by default; a Runtime runs
// at most four instances at once by default, so that its worst case is
// bounded too.
//
// A Runtime compiles each module once, on its first run, and keeps the
// native code in a cache folder (DefaultCacheDir) so that the next process
// loads it instead of compiling again. Every run gets a fresh instance.
package wasm
