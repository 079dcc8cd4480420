package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// ServeOptions are canon watch's flags. Debounce, when not nil, replaces
// the configured quiet time; Idle, when not 0, stops the watcher after
// that long with no command asking; StartedBy is who started it
// (gitsync.StartedByHand, StartedByCommand).
type ServeOptions struct {
	Debounce  *time.Duration
	Idle      time.Duration
	StartedBy string
}

// Serve is canon watch: it takes the worktree's watcher lock, watches
// until ctx ends (or it stops by itself: ServeOptions.Idle, the worktree
// gone) and closes the session. What happens goes to out; why it stopped
// by itself is out.Stopped.
func Serve(ctx context.Context, s *gitsync.Session, opt ServeOptions, out *Output) error {
	s.Progress = nil // a rebuild inside the watcher reports as one line
	lock, err := gitsync.AcquireWatcher(s.Repo.CanonDir())
	if err != nil {
		s.Close()
		var busy *gitsync.WatcherBusyError
		if errors.As(err, &busy) {
			return fmt.Errorf("%w; stop it first (canon watch --stop), or leave it running: canon status shows it", busy)
		}
		return err
	}
	defer lock.Release()
	cfg := s.Cfg.Watch
	wait := cfg.Debounce
	if opt.Debounce != nil {
		wait = *opt.Debounce
	}
	s.Note = out.Note
	w, err := New(s, Options{
		Debounce: wait, MaxDelay: max(cfg.MaxDelay, wait), Rescan: cfg.Rescan, Lock: lock,
		OnSync:  out.Sync, // the session told the worksets (OnSync)
		OnError: out.Error,
		Idle:    opt.Idle, StartedBy: opt.StartedBy,
	})
	if err != nil {
		s.Close()
		return err
	}
	w.Start()
	out.start(s.Repo.Root, w.Folders(), wait, max(cfg.MaxDelay, wait), cfg.Rescan)
	err = w.Run(ctx)
	w.Session().Close()
	out.Stopped = w.Stopped()
	out.stop()
	return err
}

// Output prints what a watcher does: a line per sync that changed
// something, or with JSON one object per event (start, sync, note, error,
// stop; docs/watch.md). Quiet prints errors only. Explain turns an error
// into the sentence shown.
type Output struct {
	Stdout, Stderr io.Writer
	JSON, Quiet    bool
	Explain        func(error) string
	// Stopped is why the watcher stopped by itself (StopIdle, StopGone),
	// "" when it was stopped; set when Serve returns.
	Stopped string
	// Announce, when set, is said at start once the lock is taken, even
	// when Quiet (a watcher a command started says so in its log).
	Announce string

	mu    sync.Mutex
	syncs int
}

func (o *Output) emit(v any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, _ := json.Marshal(v)
	_, _ = o.Stdout.Write(append(b, '\n')) // a reader that left: nobody to tell
}

func (o *Output) notef(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.Stderr, "canon: "+format+"\n", args...)
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func (o *Output) start(root string, folders int, debounce, maxDelay, rescan time.Duration) {
	if o.Announce != "" && !o.JSON {
		o.notef("%s", o.Announce)
	}
	switch {
	case o.JSON:
		o.emit(map[string]any{"event": "start", "time": stamp(time.Now()), "pid": os.Getpid(), "root": root,
			"folders": folders, "debounce_ms": debounce.Milliseconds(), "max_delay_ms": maxDelay.Milliseconds(),
			"rescan_s": int64(rescan.Seconds())})
	case !o.Quiet:
		every := "no periodic rescan"
		if rescan > 0 {
			every = "rescan every " + rescan.String()
		}
		o.notef("watching %s (%d folders; debounce %s, %s); Ctrl-C stops", root, folders, debounce, every)
	}
}

func (o *Output) stop() {
	why := map[string]string{StopIdle: "; no command asked for its idle time", StopGone: "; the worktree or its git folder is gone", StopSchema: "; another canon changed the index's schema (an upgrade)", StopMissed: "; it could not watch every folder (the system's limit of watches)"}[o.Stopped]
	switch {
	case o.JSON:
		ev := map[string]any{"event": "stop", "time": stamp(time.Now()), "syncs": o.syncs}
		if o.Stopped != "" {
			ev["reason"] = o.Stopped
		}
		o.emit(ev)
	case !o.Quiet || o.Stopped != "":
		o.notef("stopped after %d syncs%s", o.syncs, why)
	}
}

// Note passes on the session's notes (a rebuild and why).
func (o *Output) Note(msg string) {
	switch {
	case o.JSON:
		o.emit(map[string]any{"event": "note", "time": stamp(time.Now()), "message": msg})
	case !o.Quiet:
		o.notef("%s", msg)
	}
}

// Error reports a failed sync.
func (o *Output) Error(err error) {
	if o.JSON {
		o.emit(map[string]any{"event": "error", "time": stamp(time.Now()), "message": o.Explain(err)})
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.Stderr, "canon: watch: %s\n", o.Explain(err))
}

// syncJSON is the shape of a sync event (docs/watch.md).
type syncJSON struct {
	Event     string `json:"event"`
	Time      string `json:"time"`
	Trigger   string `json:"trigger"`
	Action    string `json:"action"`
	From      string `json:"from,omitempty"`
	Head      string `json:"head"`
	Events    int    `json:"events"`
	Paths     int    `json:"paths"`
	ElapsedMs int64  `json:"elapsed_ms"`
	Changed   bool   `json:"changed"`
	Documents *int   `json:"documents,omitempty"` // after a full build
	*index.Changes
}

// Sync reports one sync.
func (o *Output) Sync(r *Report) {
	o.syncs++
	res := r.Result
	if o.JSON {
		out := syncJSON{Event: "sync", Time: stamp(r.At), Trigger: r.Trigger, Action: res.Action,
			From: res.From, Head: res.To, Events: r.Events, Paths: r.Paths, ElapsedMs: r.Elapsed.Milliseconds(),
			Changed: r.Changed(), Changes: gitsync.Normalized(res.Changes)}
		if res.Stats != nil {
			out.Documents = &res.Stats.Documents
		}
		o.emit(out)
		return
	}
	if o.Quiet || !r.Changed() {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintln(o.Stdout, r.Line())
}

// Line says what one sync did on one line: when, why, what, how long.
func (r *Report) Line() string {
	res := r.Result
	what := r.Trigger
	if res.From != "" && res.To != "" && res.From != res.To {
		what += " " + human.Commit(res.From) + ".." + human.Commit(res.To)
	}
	line := r.At.Local().Format("15:04:05") + " " + what + ": "
	if res.Action == gitsync.ActionRebuild {
		n := 0
		if res.Stats != nil {
			n = res.Stats.Documents
		}
		line += fmt.Sprintf("rebuilt the index, %s documents", human.Thousands(n))
		if res.Reason != "" {
			line += " (" + res.Reason + ")"
		}
		return line + " in " + human.Duration(r.Elapsed)
	}
	ch := res.Changes
	var parts []string
	for _, p := range []struct {
		n    int
		verb string
	}{{len(ch.Added), "added"}, {len(ch.Modified), "modified"}, {len(ch.Renamed), "renamed"}, {len(ch.Deleted), "deleted"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", human.Thousands(p.n), p.verb))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d documents' edges changed", len(ch.Keys)))
	}
	line += strings.Join(parts, ", ")
	switch {
	case len(ch.Added)+len(ch.Modified)+len(ch.Deleted) == 1 && len(ch.Renamed) == 0:
		line += " (" + firstOf(ch.Added, ch.Modified, ch.Deleted) + ")"
	case len(ch.Renamed) == 1 && len(ch.Added)+len(ch.Modified)+len(ch.Deleted) == 0:
		line += " (" + ch.Renamed[0][0] + " → " + ch.Renamed[0][1] + ")"
	}
	return line + " in " + human.Duration(r.Elapsed)
}

func firstOf(lists ...[]string) string {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return ""
}
