package wasm

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// The tests below run in a synctest bubble: synctest.Wait returns once
// every run is asleep in its module or waiting for its turn, so what runs
// at once is counted exactly. A module's own clock is the real one, so no
// run is left to sleep its hour: each is cancelled.

// TestInstancesAreBounded: of six runs of a module that sleeps for an hour,
// MaxInstances run at once and the others wait for their turn; as each
// run is cancelled, the next one starts.
func TestInstancesAreBounded(t *testing.T) {
	mod := guest(t)
	synctest.Test(t, func(t *testing.T) {
		const runs, limit = 6, 2
		r := New(Options{CacheDir: cacheDir, MaxInstances: limit})
		defer r.Close(context.Background())
		errs := make(chan error, runs)
		cancels := make([]context.CancelFunc, runs)
		for i := range runs {
			ctx, cancel := context.WithCancel(t.Context())
			cancels[i] = cancel
			go func() {
				_, err := r.Run(ctx, Spec{Module: mod, Args: []string{"sleep"}, Cwd: t.TempDir()})
				errs <- err
			}()
		}
		for ended := range runs + 1 {
			synctest.Wait()
			if got, want := int(r.running.Load()), min(limit, runs-ended); got != want {
				t.Errorf("with %d of %d runs cancelled, %d instances run at once, want %d", ended, runs, got, want)
			}
			if ended < runs {
				cancels[ended]()
			}
		}
		for range runs {
			if err := <-errs; !errors.Is(err, context.Canceled) {
				t.Errorf("a run ended with %v, want %v", err, context.Canceled)
			}
		}
	})
}

// TestInstanceWaitCountsAgainstTimeout: a run whose timeout passes while it
// waits for its turn ends with the context's error when the timeout
// passes, never having started.
func TestInstanceWaitCountsAgainstTimeout(t *testing.T) {
	mod := guest(t)
	synctest.Test(t, func(t *testing.T) {
		r := New(Options{CacheDir: cacheDir, MaxInstances: 1})
		defer r.Close(context.Background())
		ctx, cancel := context.WithCancel(t.Context())
		first := make(chan error, 1)
		go func() {
			_, err := r.Run(ctx, Spec{Module: mod, Args: []string{"sleep"}, Cwd: t.TempDir()})
			first <- err
		}()
		synctest.Wait()

		type result struct {
			err   error
			after time.Duration
		}
		second := make(chan result, 1)
		go func() {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			start := time.Now()
			_, err := r.Run(ctx, Spec{Module: mod, Args: []string{"echo"}, Cwd: t.TempDir()})
			second <- result{err, time.Since(start)}
		}()
		time.Sleep(10 * time.Second)
		synctest.Wait()
		select {
		case got := <-second:
			if !errors.Is(got.err, context.DeadlineExceeded) || got.after != 10*time.Second {
				t.Errorf("the waiting run ended with %v after %v, want %v after 10s", got.err, got.after, context.DeadlineExceeded)
			}
		default:
			t.Errorf("the waiting run was still going after its 10s")
		}
		cancel()
		if err := <-first; !errors.Is(err, context.Canceled) {
			t.Errorf("the first run ended with %v, want %v", err, context.Canceled)
		}
		if r.running.Load() != 0 {
			t.Errorf("%d instances still running", r.running.Load())
		}
	})
}
