package watch

import (
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestDue(t *testing.T) {
	t.Parallel()
	const quiet, maxDelay = 150 * time.Millisecond, time.Second
	tests := []struct {
		name        string
		first, last time.Duration // after t0; -1 for no event
		now         time.Duration
		ready       bool
		wait        time.Duration
	}{
		{name: "nothing pending", first: -1, last: -1, now: ms(500)},
		{name: "one event, still settling", first: 0, last: 0, now: ms(100), wait: ms(50)},
		{name: "one event, quiet long enough", first: 0, last: 0, now: ms(150), ready: true},
		{name: "a later event restarts the quiet time", first: 0, last: ms(120), now: ms(200), wait: ms(70)},
		{name: "a steady stream syncs at max delay", first: 0, last: ms(990), now: ms(1000), ready: true},
		{name: "max delay caps the wait", first: 0, last: ms(900), now: ms(950), wait: ms(50)},
		{name: "long past due", first: 0, last: 0, now: time.Hour, ready: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first, last time.Time
			if tt.first >= 0 {
				first, last = t0.Add(tt.first), t0.Add(tt.last)
			}
			ready, wait := due(first, last, t0.Add(tt.now), quiet, maxDelay)
			if ready != tt.ready || wait != tt.wait {
				t.Fatalf("due = %v, %v; want %v, %v", ready, wait, tt.ready, tt.wait)
			}
		})
	}
}

func TestDueZeroDebounce(t *testing.T) {
	t.Parallel()
	if ready, _ := due(t0, t0, t0, 0, 0); !ready {
		t.Fatal("a zero debounce must sync at once")
	}
}

func TestPendingCoalesces(t *testing.T) {
	t.Parallel()
	p := newPending()
	if !p.empty() {
		t.Fatal("new pending set not empty")
	}
	for i := 0; i < 50; i++ {
		p.addFile("items/a.md", t0.Add(ms(i)))
	}
	p.addFile("items/b.md", t0.Add(ms(60)))
	p.addDir("items/sub", t0.Add(ms(70)))
	p.addDir("items/sub/deeper", t0.Add(ms(80)))
	p.addDir("items/subway", t0.Add(ms(90)))
	if got := p.sortedFiles(); !reflect.DeepEqual(got, []string{"items/a.md", "items/b.md"}) {
		t.Fatalf("files = %v", got)
	}
	if got := p.outermostDirs(); !reflect.DeepEqual(got, []string{"items/sub", "items/subway"}) {
		t.Fatalf("dirs = %v", got)
	}
	if p.events != 54 || !p.first.Equal(t0) || !p.last.Equal(t0.Add(ms(90))) {
		t.Fatalf("events %d, first %v, last %v", p.events, p.first, p.last)
	}
	if p.trigger() != TriggerEdit {
		t.Fatalf("trigger = %s", p.trigger())
	}
}

func TestPendingTriggers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fill func(p *pending)
		want string
	}{
		{"edit", func(p *pending) { p.addFile("a.md", t0) }, TriggerEdit},
		{"git alone", func(p *pending) { p.markGit(t0) }, TriggerGit},
		{"git with edits (a checkout writes files)", func(p *pending) { p.markGit(t0); p.addFile("a.md", t0) }, TriggerGit},
		{"overflow wins over edits", func(p *pending) { p.addFile("a.md", t0); p.markFull(TriggerOverflow, t0) }, TriggerOverflow},
		{"the first full reason is kept", func(p *pending) { p.markFull(TriggerIgnore, t0); p.markFull(TriggerOverflow, t0) }, TriggerIgnore},
		{"config wins", func(p *pending) { p.markFull(TriggerOverflow, t0); p.markConfig(t0) }, TriggerConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPending()
			tt.fill(p)
			if got := p.trigger(); got != tt.want {
				t.Fatalf("trigger = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPendingRequestFullCountsNoEvent(t *testing.T) {
	t.Parallel()
	p := newPending()
	p.requestFull(TriggerRescan, t0)
	if p.events != 0 || p.full != TriggerRescan || p.first.IsZero() {
		t.Fatalf("%+v", p)
	}
}

func TestPendingMerge(t *testing.T) {
	t.Parallel()
	failed := newPending()
	failed.addFile("a.md", t0)
	failed.markGit(t0)
	now := newPending()
	now.addFile("b.md", t0.Add(time.Second))
	now.merge(failed)
	if got := now.sortedFiles(); !reflect.DeepEqual(got, []string{"a.md", "b.md"}) {
		t.Fatalf("files = %v", got)
	}
	if !now.git || now.events != 3 || !now.first.Equal(t0) || !now.last.Equal(t0.Add(time.Second)) {
		t.Fatalf("%+v", now)
	}
}
