package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/gitsync/watch"
	"github.com/canon-md/canon/index"
)

func watchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "keep the index in step with the working tree as files are saved (runs until Ctrl-C)",
		Description: "Watches the canonical roots, HEAD and the branch refs; syncs each settled burst of edits\n" +
			"(only the changed paths), catches up when a checkout or reset moves HEAD, and rescans\n" +
			"everything periodically as a safety net. One watcher per worktree; canon status shows it.\n" +
			"The --json-events lines are documented in docs/watch.md.",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "debounce", Usage: "quiet time before a sync", DefaultText: "watch.debounce, 150ms"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.BoolFlag{Name: "json-events", Aliases: []string{"json"}, Usage: "print one JSON object per line for each event (start, sync, note, error, stop)"},
		},
		Action: func(c *cli.Context) error {
			return runWatch(c, e)
		},
	}
}

func runWatch(c *cli.Context, e *env) error {
	s, err := e.openNoSync("canon watch")
	if err != nil {
		return err
	}
	s.Progress = nil // a rebuild inside the watcher reports as one line
	lock, err := watch.Acquire(s.Repo.CanonDir())
	if err != nil {
		s.Close()
		var busy *watch.BusyError
		if errors.As(err, &busy) {
			return fail(1, "%s; stop it first (kill %d), or leave it running: canon status shows it", busy.Error(), busy.PID)
		}
		return err
	}
	defer lock.Release()

	cfg := s.Cfg.Watch
	debounce := cfg.Debounce
	if c.IsSet("debounce") {
		debounce = c.Duration("debounce")
		if debounce < 0 || debounce > 10*time.Second {
			s.Close()
			return fail(2, "--debounce %s is out of range; give a duration from 0 to 10s, like 150ms", debounce)
		}
	}
	out := &watchOutput{e: e, json: c.Bool("json-events"), quiet: c.Bool("quiet")}
	s.Note = out.note
	var w *watch.Watcher
	w, err = watch.New(s, watch.Options{
		Debounce: debounce, MaxDelay: max(cfg.MaxDelay, debounce), Rescan: cfg.Rescan, Lock: lock,
		OnSync: func(r *watch.Report) {
			out.sync(r) // the session told the worksets (OnSync)
		},
		OnError: out.error,
	})
	if err != nil {
		s.Close()
		return err
	}
	w.Start()
	out.start(s.Repo.Root, w.Folders(), debounce, max(cfg.MaxDelay, debounce), cfg.Rescan)
	err = w.Run(c.Context)
	w.Session().Close()
	out.stop()
	return err
}

// watchOutput prints what the watcher does: a line per sync that changed
// something, or with --json-events one JSON object per event.
type watchOutput struct {
	e           *env
	json, quiet bool
	mu          sync.Mutex
	syncs       int
}

func (o *watchOutput) emit(v any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, _ := json.Marshal(v)
	o.e.stdout.Write(append(b, '\n'))
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func (o *watchOutput) start(root string, folders int, debounce, maxDelay, rescan time.Duration) {
	switch {
	case o.json:
		o.emit(map[string]any{"event": "start", "time": stamp(time.Now()), "pid": os.Getpid(), "root": root,
			"folders": folders, "debounce_ms": debounce.Milliseconds(), "max_delay_ms": maxDelay.Milliseconds(),
			"rescan_s": int64(rescan.Seconds())})
	case !o.quiet:
		every := "no periodic rescan"
		if rescan > 0 {
			every = "rescan every " + rescan.String()
		}
		o.e.notef("watching %s (%d folders; debounce %s, %s); Ctrl-C stops", root, folders, debounce, every)
	}
}

func (o *watchOutput) stop() {
	switch {
	case o.json:
		o.emit(map[string]any{"event": "stop", "time": stamp(time.Now()), "syncs": o.syncs})
	case !o.quiet:
		o.e.notef("stopped after %d syncs", o.syncs)
	}
}

// note passes on the session's notes (a rebuild and why).
func (o *watchOutput) note(msg string) {
	switch {
	case o.json:
		o.emit(map[string]any{"event": "note", "time": stamp(time.Now()), "message": msg})
	case !o.quiet:
		o.e.notef("%s", msg)
	}
}

func (o *watchOutput) error(err error) {
	if o.json {
		o.emit(map[string]any{"event": "error", "time": stamp(time.Now()), "message": explain(err)})
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.e.stderr, "canon: watch: %s\n", explain(err))
}

// watchSyncJSON is the shape of a sync event (docs/watch.md).
type watchSyncJSON struct {
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

func (o *watchOutput) sync(r *watch.Report) {
	o.syncs++
	res := r.Result
	if o.json {
		ch := res.Changes
		if ch == nil {
			ch = &index.Changes{}
		}
		normalizeChanges(ch)
		out := watchSyncJSON{Event: "sync", Time: stamp(r.At), Trigger: r.Trigger, Action: res.Action,
			From: res.From, Head: res.To, Events: r.Events, Paths: r.Paths, ElapsedMs: r.Elapsed.Milliseconds(),
			Changed: r.Changed(), Changes: ch}
		if res.Stats != nil {
			out.Documents = &res.Stats.Documents
		}
		o.emit(out)
		return
	}
	if o.quiet || !r.Changed() {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintln(o.e.stdout, syncLine(r))
}

// syncLine says what one sync did on one line: when, why, what, how long.
func syncLine(r *watch.Report) string {
	res := r.Result
	what := r.Trigger
	if res.From != "" && res.To != "" && res.From != res.To {
		what += " " + shortHash(res.From) + ".." + shortHash(res.To)
	}
	line := r.At.Local().Format("15:04:05") + " " + what + ": "
	if res.Action == gitsync.ActionRebuild {
		n := 0
		if res.Stats != nil {
			n = res.Stats.Documents
		}
		line += fmt.Sprintf("rebuilt the index, %s documents", thousands(n))
		if res.Reason != "" {
			line += " (" + res.Reason + ")"
		}
		return line + " in " + roundDur(r.Elapsed)
	}
	ch := res.Changes
	var parts []string
	for _, p := range []struct {
		n    int
		verb string
	}{{len(ch.Added), "added"}, {len(ch.Modified), "modified"}, {len(ch.Renamed), "renamed"}, {len(ch.Deleted), "deleted"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", thousands(p.n), p.verb))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d documents' edges changed", len(ch.Keys)))
	}
	line += joinComma(parts)
	switch {
	case len(ch.Added)+len(ch.Modified)+len(ch.Deleted) == 1 && len(ch.Renamed) == 0:
		line += " (" + firstOf(ch.Added, ch.Modified, ch.Deleted) + ")"
	case len(ch.Renamed) == 1 && len(ch.Added)+len(ch.Modified)+len(ch.Deleted) == 0:
		line += " (" + ch.Renamed[0][0] + " → " + ch.Renamed[0][1] + ")"
	}
	return line + " in " + roundDur(r.Elapsed)
}

func firstOf(lists ...[]string) string {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return ""
}

func joinComma(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}

// printWatcher is canon status's watcher line.
func printWatcher(w io.Writer, obs *watch.Observed) {
	if obs == nil {
		return
	}
	if !obs.Running {
		line := "not running; canon watch keeps the index in step with edits"
		if obs.StalePID > 0 {
			line = fmt.Sprintf("not running (pid %d stopped without cleaning up; canon watch starts a new one)", obs.StalePID)
		}
		fmt.Fprintf(w, "watcher   %s\n", line)
		return
	}
	st := obs.Status
	line := fmt.Sprintf("pid %d", st.PID)
	if !st.StartedAt.IsZero() {
		line += " since " + ago(st.StartedAt.Format(time.RFC3339))
	}
	switch {
	case st.LastError != "":
		line += "; failing: " + st.LastError
	case st.PendingSince != nil:
		line += fmt.Sprintf("; %d+ events waiting since %s", st.PendingEvents, roundDur(time.Since(*st.PendingSince)))
	case st.LastSyncAt != nil:
		line += fmt.Sprintf("; idle, last sync %s ago (%d ms)", time.Since(*st.LastSyncAt).Round(time.Second), st.LastSyncMs)
	default:
		line += "; starting"
	}
	fmt.Fprintf(w, "watcher   %s\n", line)
}
