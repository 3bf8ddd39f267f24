package wasm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/mm-agent/mm/internal/regularfile"
)

// maxModuleBytes bounds a module file. A Go module is 2 to 3 MiB, an
// interpreter built for WASI (CPython, QuickJS) 5 to 30 MiB; compiling holds
// the module and its machine code, several times its size, in memory.
const maxModuleBytes = 64 << 20

// compile reads and compiles m, with the disk cache when there is one, else
// (or when the cache fails) in memory.
func (r *Runtime) compile(m *module) {
	defer r.bg.Done()
	defer func() {
		r.mu.Lock()
		m.done = true
		close(m.ready)
		shut := m.retired && m.refs == 0
		r.mu.Unlock()
		if shut {
			m.shut()
		}
	}()
	file := filepath.Base(m.path)
	bin, err := regularfile.ReadFile(m.path, maxModuleBytes, "a wasm module")
	if err != nil {
		m.err = &LoadError{File: file, Reason: reason(err)}
		return
	}
	// At least two workers: wazero's single-worker compiler does not stop
	// when its context ends, and Close would wait for it.
	ctx := experimental.WithCompilationWorkers(r.ctx, max(2, goruntime.GOMAXPROCS(0)))
	cfg := wazero.NewRuntimeConfig().
		WithCloseOnContextDone(true).
		WithDebugInfoEnabled(false).
		WithMemoryLimitPages(r.memoryPages())

	if root := r.cacheDir(); root != "" {
		if dir, err := moduleCacheDir(root, bin); err == nil {
			if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
				m.rt, m.code, err = compileOn(ctx, cfg.WithCompilationCache(cache), bin)
				if err == nil {
					m.cache = cache
					r.startPrune(root)
					m.err = check(file, m.code)
					return
				}
				cache.Close(ctx)
				// A broken entry fails every process: start the folder afresh
				// if the module compiles without it.
				defer func() {
					if m.err == nil {
						os.RemoveAll(dir)
					}
				}()
			}
		}
	}
	m.rt, m.code, err = compileOn(ctx, cfg, bin)
	if err != nil {
		m.err = &LoadError{File: file, Reason: r.compileReason(err)}
		if r.ctx.Err() != nil {
			m.err = errClosed
		}
		return
	}
	m.err = check(file, m.code)
}

// compileOn makes a wazero runtime with WASI and compiles bin on it.
func compileOn(ctx context.Context, cfg wazero.RuntimeConfig, bin []byte) (wazero.Runtime, wazero.CompiledModule, error) {
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, nil, err
	}
	code, err := rt.CompileModule(ctx, bin)
	if err != nil {
		rt.Close(ctx)
		return nil, nil, err
	}
	return rt, code, nil
}

// check refuses a module mm cannot run as a command: one without _start
// (a library, or a WASI reactor) or one importing something other than WASI
// preview 1 (a browser module, a WASI preview 2 component).
func check(file string, code wazero.CompiledModule) error {
	if _, ok := code.ExportedFunctions()["_start"]; !ok {
		return &LoadError{File: file, Reason: "it has no _start function: build it as a WASI preview 1 command (GOOS=wasip1 GOARCH=wasm go build)"}
	}
	var foreign []string
	for _, f := range code.ImportedFunctions() {
		if mod, name, _ := f.Import(); mod != wasi_snapshot_preview1.ModuleName {
			foreign = append(foreign, mod+"."+name)
		}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		return &LoadError{File: file, Reason: fmt.Sprintf("it imports %s, which mm does not provide (only %s)", strings.Join(foreign, ", "), wasi_snapshot_preview1.ModuleName)}
	}
	return nil
}

// reason is an error's text for a LoadError: wazero's and the os package's
// without the "module[...]" and "open <path>" decorations.
func reason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// minPagesOver finds wazero's refusal of a module whose memory starts
// larger than the limit.
// It is compiled on first use: most runs of mm never need it.
var minPagesOver = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`min (\d+) pages \([^)]*\) over limit`)
})

// compileReason words a compilation failure, the memory limit plainly.
func (r *Runtime) compileReason(err error) string {
	if m := minPagesOver().FindStringSubmatch(err.Error()); m != nil {
		pages, _ := strconv.ParseInt(m[1], 10, 64)
		const mib = 1 << 20
		return fmt.Sprintf("it needs %d MiB of memory at start, more than the %d MiB a module may have",
			(pages*pageSize+mib-1)/mib, int64(r.memoryPages())*pageSize/mib)
	}
	return reason(err)
}
