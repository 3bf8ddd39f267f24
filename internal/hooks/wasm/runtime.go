package wasm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"golang.org/x/sync/semaphore"
)

// DefaultMemoryLimit caps a module's linear memory when Options gives none.
const DefaultMemoryLimit = 256 << 20

// DefaultMaxInstances bounds the instances that run at once in a Runtime
// when Options gives none. Each may take its whole MemoryLimit (256 MiB by
// default), so four bound the worst case at 1 GiB of linear memory plus the
// compiled code — what a laptop that also runs a local model can spare —
// where sixteen hook runs at once once took 2.5 GB. A hook run lasts
// milliseconds, so a run that waits for its turn seldom waits long.
const DefaultMaxInstances = 4

const pageSize = 64 << 10

// Options configures a Runtime. The zero value is the default.
type Options struct {
	// CacheDir keeps compiled modules between processes; "" is
	// DefaultCacheDir. A folder that cannot be used is no error: modules
	// are then compiled in memory, by each process.
	CacheDir string
	// MemoryLimit caps a module's linear memory, in bytes (rounded down to
	// 64 KiB pages); 0 is DefaultMemoryLimit.
	MemoryLimit int64
	// MaxInstances bounds the instances running at once, across all
	// modules; 0 is DefaultMaxInstances. A run beyond it waits for its
	// turn, and its context's deadline counts while it waits.
	MaxInstances int
}

// Runtime runs WASI preview 1 command modules in a sandbox. Each module is
// compiled once, on its first run, and each run gets a fresh instance: no
// state is carried from one run to the next. A Runtime is safe for
// concurrent use; New does no work, so an mm that runs no module pays
// nothing.
type Runtime struct {
	opts Options
	// slots bounds the instances running at once (Options.MaxInstances).
	slots *semaphore.Weighted
	// ctx ends when the Runtime is closed; compilations run under it rather
	// than under the run that asked first, so that one impatient run does
	// not fail the others waiting for the same module.
	ctx    context.Context
	cancel context.CancelFunc

	cacheOnce sync.Once
	cacheRoot string // "" when no disk cache can be used
	pruneOnce sync.Once

	mu      sync.Mutex
	modules map[string]*module // by path
	closed  bool
	bg      sync.WaitGroup // compilations and pruning under way

	compiles atomic.Int32 // compilations started, for the tests
	running  atomic.Int32 // instances running, for the tests
}

// module is one module file compiled. Each has its own wazero runtime, so
// that its compiled code lives in a cache folder of its own that can be
// aged out on its own.
type module struct {
	path  string
	size  int64
	mtime time.Time
	ready chan struct{} // closed once rt, cache, code and err are set

	rt    wazero.Runtime
	cache wazero.CompilationCache // nil when compiled in memory
	code  wazero.CompiledModule
	err   error

	// Guarded by Runtime.mu.
	done    bool // ready is closed
	refs    int  // runs using the module
	retired bool // replaced, or the Runtime is closing: shut at refs 0

	shutOnce sync.Once
}

// New returns a Runtime. Nothing is compiled or read until the first Run.
func New(opts Options) *Runtime {
	ctx, cancel := context.WithCancel(context.Background())
	n := opts.MaxInstances
	if n <= 0 {
		n = DefaultMaxInstances
	}
	return &Runtime{opts: opts, slots: semaphore.NewWeighted(int64(n)), ctx: ctx, cancel: cancel, modules: map[string]*module{}}
}

func (r *Runtime) memoryPages() uint32 {
	limit := r.opts.MemoryLimit
	if limit <= 0 {
		limit = DefaultMemoryLimit
	}
	return uint32(min(max(limit/pageSize, 1), 65536))
}

// cacheDir resolves and prepares the disk cache once; "" means none.
func (r *Runtime) cacheDir() string {
	r.cacheOnce.Do(func() {
		dir := r.opts.CacheDir
		if dir == "" {
			var err error
			if dir, err = DefaultCacheDir(); err != nil {
				return
			}
		}
		if abs, err := filepath.Abs(dir); err == nil && prepareCacheDir(abs) == nil {
			r.cacheRoot = abs
		}
	})
	return r.cacheRoot
}

// acquire returns the module at path compiled, waiting for its compilation
// if it is under way, and how long it waited. The wait is not cut short
// when ctx's deadline passes, only when ctx is cancelled: a compilation is
// not part of the run its timeout bounds. The caller must release the
// module.
func (r *Runtime) acquire(ctx context.Context, path string) (*module, time.Duration, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, &LoadError{File: filepath.Base(path), Reason: reason(err)}
	}
	m, err := r.lookup(path, st, true)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	select {
	case <-m.ready:
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.release(m)
			return nil, 0, ctx.Err()
		}
		<-m.ready
	}
	if m.err != nil {
		r.release(m)
		return nil, 0, m.err
	}
	return m, time.Since(start), nil
}

// Preload starts compiling the modules at paths in the background, so that
// their first runs need not wait: mm may call it once it knows a session's
// wasm hooks. It returns at once; a module that cannot be loaded fails its
// runs as usual.
func (r *Runtime) Preload(paths ...string) {
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			r.lookup(p, st, false)
		}
	}
}

// lookup returns the module at path, starting its compilation if it is new
// or if the file changed (size or time) since it was compiled; with use,
// the caller holds it and must release it.
func (r *Runtime) lookup(path string, st os.FileInfo, use bool) (*module, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, errClosed
	}
	var old *module
	m := r.modules[path]
	if m != nil && (m.size != st.Size() || !m.mtime.Equal(st.ModTime())) {
		delete(r.modules, path)
		if r.retireLocked(m) {
			old = m
		}
		m = nil
	}
	if m == nil {
		m = &module{path: path, size: st.Size(), mtime: st.ModTime(), ready: make(chan struct{})}
		r.modules[path] = m
		r.bg.Add(1)
		r.compiles.Add(1)
		go r.compile(m)
	}
	if use {
		m.refs++
	}
	r.mu.Unlock()
	if old != nil {
		old.shut()
	}
	return m, nil
}

func (r *Runtime) release(m *module) {
	r.mu.Lock()
	m.refs--
	shut := m.retired && m.refs == 0 && m.done
	r.mu.Unlock()
	if shut {
		m.shut()
	}
}

// retireLocked marks m to be shut once no run uses it, and reports whether
// that is now.
func (r *Runtime) retireLocked(m *module) bool {
	m.retired = true
	return m.refs == 0 && m.done
}

// shut releases m's wazero runtime and cache.
func (m *module) shut() {
	m.shutOnce.Do(func() {
		ctx := context.Background()
		if m.rt != nil {
			m.rt.Close(ctx)
		}
		if m.cache != nil {
			m.cache.Close(ctx)
		}
	})
}

// startPrune prunes the cache once per Runtime, in the background, after a
// module was compiled: never on the path of a run.
func (r *Runtime) startPrune(root string) {
	r.pruneOnce.Do(func() {
		r.bg.Add(1)
		go func() {
			defer r.bg.Done()
			prune(root, time.Now())
		}()
	})
}

// Close stops the compilations under way and waits for them (or for ctx),
// and releases the compiled modules. Runs still going finish first, bounded
// by their own context; runs started after Close fail.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	var idle []*module
	for path, m := range r.modules {
		delete(r.modules, path)
		if r.retireLocked(m) {
			idle = append(idle, m)
		}
	}
	r.mu.Unlock()
	r.cancel()
	for _, m := range idle {
		m.shut()
	}
	done := make(chan struct{})
	go func() {
		r.bg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
