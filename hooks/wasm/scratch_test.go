package wasm

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func TestScratchBreakdown(t *testing.T) {
	mod := bashGuard(t)
	cache := t.TempDir()
	firstRun2(t, mod, cache)
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		bin, _ := os.ReadFile(mod)
		t1 := time.Now()
		sha256.Sum256(bin)
		t2 := time.Now()
		c, _ := wazero.NewCompilationCacheWithDir(cache + "/x")
		cfg := wazero.NewRuntimeConfig().WithCloseOnContextDone(true).WithDebugInfoEnabled(false).WithCompilationCache(c)
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, cfg)
		t3 := time.Now()
		wasi_snapshot_preview1.Instantiate(ctx, rt)
		t4 := time.Now()
		code, err := rt.CompileModule(ctx, bin)
		t5 := time.Now()
		if err != nil { t.Fatal(err) }
		_, _ = rt.InstantiateModule(ctx, code, wazero.NewModuleConfig().WithStdin(os.Stdin))
		t6 := time.Now()
		rt.Close(ctx); c.Close(ctx)
		fmt.Println("read", t1.Sub(t0), "sha", t2.Sub(t1), "newrt", t3.Sub(t2), "wasi", t4.Sub(t3), "compile", t5.Sub(t4), "inst+run", t6.Sub(t5))
	}
}

func firstRun2(t *testing.T, mod, cache string) {
	c, _ := wazero.NewCompilationCacheWithDir(cache + "/x")
	cfg := wazero.NewRuntimeConfig().WithCloseOnContextDone(true).WithDebugInfoEnabled(false).WithCompilationCache(c)
	rt := wazero.NewRuntimeWithConfig(context.Background(), cfg)
	bin, _ := os.ReadFile(mod)
	rt.CompileModule(context.Background(), bin)
	rt.Close(context.Background()); c.Close(context.Background())
}
