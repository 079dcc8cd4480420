// Package hang turns a test that hangs into a failure that says so: what
// it waited for, and that it hung. It is a watchdog, not a bound on speed:
// Limit is longer than any step of canon's tests takes on the slowest,
// most loaded machine they run on, so a step that reaches it is stuck (a
// deadlock, a wait nothing ends), never merely slow. Tests assert what
// happened, never how long it took (ADR-0034): on shared machines the same
// step varies several times over. Without a watchdog a hang ends only at
// go test's -timeout (30 minutes in make test), which kills the whole
// package with every goroutine's stack and no word of what was awaited.
//
// It imports nothing of canon's, so any package's tests can use it.
package hang

import (
	"testing"
	"time"
)

// Limit is how long a test waits for something before it says that it
// hung: ten minutes, where the steps it guards take milliseconds to
// seconds. go test's own default -timeout is ten minutes too; make test
// and make test-short give the package 30.
const Limit = 10 * time.Minute

// poll is how often Until looks again: often enough that a test waits
// little past the moment its condition holds, seldom enough to cost
// nothing beside the work it waits for.
const poll = 5 * time.Millisecond

// Wait returns what ch delivers (or the zero value when ch is closed); if
// nothing comes within Limit, it fails t: "hung: " and what was awaited.
// Run what may hang on another goroutine that sends on ch, and keep t's
// Fatal calls out of it.
func Wait[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(Limit)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("hung: %s, still waiting after %v", what, Limit)
		var zero T
		return zero
	}
}

// Go runs fn on a goroutine of its own and waits for it to return, as
// Wait does: it fails t with "hung: " and what if fn has not returned
// within Limit. fn must not call t's Fatal methods.
func Go(t testing.TB, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	Wait(t, done, what)
}

// Until polls cond until it holds; if it does not within Limit, it fails
// t: "hung: " and what was awaited. It is how a test waits for something
// another goroutine or process does: on the state it must reach, never a
// sleep that guesses how long that takes.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("hung: %s, still waiting after %v", what, Limit)
		}
		time.Sleep(poll)
	}
}
