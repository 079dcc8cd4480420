package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/search"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchwatch: error:", err)
		os.Exit(1)
	}
}

type opts struct {
	canon, dir, debounce string
	runs                 int
	idle                 time.Duration
}

func run() error {
	var o opts
	flag.StringVar(&o.canon, "canon", "bin/canon", "the canon binary under test")
	flag.StringVar(&o.dir, "dir", "", "a canon-indexed git corpus (gencorpus -git); edits are reverted at the end")
	flag.IntVar(&o.runs, "runs", 40, "edits timed per method")
	flag.DurationVar(&o.idle, "idle", time.Minute, "idle period over which the watcher's CPU time is read")
	flag.StringVar(&o.debounce, "debounce", "", "pass --debounce to the watcher (default: its own, 150ms)")
	flag.Parse()
	if o.dir == "" {
		return errors.New("-dir is required")
	}
	canon, err := filepath.Abs(o.canon)
	if err != nil {
		return err
	}
	o.canon = canon
	docs, err := documents(o.dir)
	if err != nil {
		return err
	}
	defer func() { _ = exec.Command("git", "-C", o.dir, "checkout", "-q", "--", ".").Run() }() // best effort: put the work tree back

	args := []string{"-C", o.dir, "watch", "--quiet"}
	if o.debounce != "" {
		args = append(args, "--debounce", o.debounce)
	}
	w := exec.Command(o.canon, args...)
	w.Stderr = os.Stderr
	start := time.Now()
	if err := w.Start(); err != nil {
		return err
	}
	defer func() {
		_ = w.Process.Signal(os.Interrupt) // stopping it: gone already is as good
		_ = w.Wait()
	}()
	canonDir := filepath.Join(o.dir, ".git", "canon")
	st, err := waitStatus(canonDir, func(s *status) bool { return s.Syncs >= 1 && s.PendingSince == nil }, time.Minute)
	if err != nil {
		return fmt.Errorf("the watcher did not start: %w", err)
	}
	ready := time.Since(start)

	store, _, err := index.Open(filepath.Join(canonDir, "index.db"))
	if err != nil {
		return err
	}
	defer store.Close()

	debounce := o.debounce
	if debounce == "" {
		debounce = fmt.Sprintf("%dms (its default)", st.DebounceMs)
	}
	fmt.Printf("canon watch on %s: %d documents, %d folders watched, debounce %s\n", o.dir, len(docs), st.Folders, debounce)
	fmt.Printf("start (watches set, first reconcile done): %s\n\n", ready.Round(time.Millisecond))

	ctx := context.Background()
	pick := func(i int) string { return docs[(i*7919)%len(docs)] }
	tag := strconv.Itoa(os.Getpid())

	inProc, err := searchableInProcess(ctx, store, o, canonDir, pick, tag)
	if err != nil {
		return err
	}

	viaCLI, searchAlone, err := foundByCLI(o, canonDir, pick, tag)
	if err != nil {
		return err
	}

	fmt.Println("| measure | runs | p50 | p90 | max |")
	fmt.Println("|---|---:|---:|---:|---:|")
	row("edit → searchable (index polled every 1 ms)", inProc)
	row("edit → found by `canon search` (whole processes, back to back)", viaCLI)
	row("one `canon search` that finds nothing (its floor)", searchAlone)

	return idleCost(o, w.Process.Pid, canonDir, st.Syncs)
}

// searchableInProcess times, for each of o.runs edits, how long until the
// index (polled every millisecond in this process) finds the word it
// saved.
func searchableInProcess(ctx context.Context, store *index.Store, o opts, canonDir string, pick func(int) string, tag string) ([]time.Duration, error) {
	var inProc []time.Duration
	for i := 0; i < o.runs; i++ {
		word := fmt.Sprintf("zqw%sx%dp", tag, i)
		t0, err := save(filepath.Join(o.dir, pick(i)), word)
		if err != nil {
			return nil, err
		}
		for {
			hits, err := search.Hits(ctx, store, word, search.Options{Limit: 1})
			if err != nil {
				return nil, err
			}
			if len(hits) > 0 {
				inProc = append(inProc, time.Since(t0))
				break
			}
			if time.Since(t0) > 10*time.Second {
				return nil, fmt.Errorf("edit %d (%s) not searchable after 10 s", i, pick(i))
			}
			time.Sleep(time.Millisecond)
		}
		settle(canonDir)
	}
	return inProc, nil
}

// foundByCLI times, for each of o.runs edits, how long until canon search,
// whole processes run back to back, finds the word it saved; and each
// search that found nothing, its floor.
func foundByCLI(o opts, canonDir string, pick func(int) string, tag string) (viaCLI, searchAlone []time.Duration, err error) {
	for i := 0; i < o.runs; i++ {
		word := fmt.Sprintf("zqc%sx%dp", tag, i)
		t0, err := save(filepath.Join(o.dir, pick(o.runs+i)), word)
		if err != nil {
			return nil, nil, err
		}
		for {
			s0 := time.Now()
			out, err := exec.Command(o.canon, "-C", o.dir, "search", word, "-n", "1").Output()
			if err != nil {
				return nil, nil, fmt.Errorf("canon search: %w", err)
			}
			if !strings.HasPrefix(string(out), "no matches") {
				viaCLI = append(viaCLI, time.Since(t0))
				break
			}
			searchAlone = append(searchAlone, time.Since(s0))
			if time.Since(t0) > 10*time.Second {
				return nil, nil, fmt.Errorf("edit %d not found by canon search after 10 s", i)
			}
		}
		settle(canonDir)
	}
	return viaCLI, searchAlone, nil
}

// idleCost prints the watcher's (pid's) CPU time and syncs over the idle
// period, syncs being how many it had made before.
func idleCost(o opts, pid int, canonDir string, syncs int) error {
	time.Sleep(2 * time.Second)
	before, err := cpuTicks(pid)
	if err != nil {
		return err
	}
	synced := syncs
	if s, err := readStatus(canonDir); err == nil {
		synced = s.Syncs
	}
	time.Sleep(o.idle)
	after, err := cpuTicks(pid)
	if err != nil {
		return err
	}
	syncsIdle := 0
	if s, err := readStatus(canonDir); err == nil {
		syncsIdle = s.Syncs - synced
	}
	hz := clockTicks()
	used := time.Duration(float64(after-before) / float64(hz) * float64(time.Second))
	fmt.Printf("\nidle %s: the watcher used %s of CPU (%d ticks at %d Hz, %.3f%% of one core), %d syncs; RSS %s\n",
		o.idle, used, after-before, hz, 100*used.Seconds()/o.idle.Seconds(), syncsIdle, rss(pid))
	return nil
}

// save writes the document the way editors do: a temporary file beside it,
// renamed over it. It returns the time the rename completed.
func save(path, word string) (time.Time, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}, err
	}
	data = append(data, []byte("\n"+word+"\n")...)
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return time.Time{}, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}

// settle waits until the watcher has nothing pending, so that edits are
// timed one at a time.
func settle(canonDir string) {
	time.Sleep(50 * time.Millisecond)
	_, _ = waitStatus(canonDir, func(s *status) bool { return s.PendingSince == nil }, 10*time.Second) // settled or not, the next step measures
}

type status struct {
	Syncs        int        `json:"syncs"`
	Folders      int        `json:"folders"`
	DebounceMs   int        `json:"debounce_ms"`
	PendingSince *time.Time `json:"pending_since"`
}

func readStatus(canonDir string) (*status, error) {
	data, err := os.ReadFile(filepath.Join(canonDir, "watch.json"))
	if err != nil {
		return nil, err
	}
	var s status
	return &s, json.Unmarshal(data, &s)
}

func waitStatus(canonDir string, ok func(*status) bool, timeout time.Duration) (*status, error) {
	deadline := time.Now().Add(timeout)
	for {
		s, err := readStatus(canonDir)
		if err == nil && ok(s) {
			return s, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("timed out")
			}
			return nil, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// documents lists the corpus's Markdown files, sorted.
func documents(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	if len(out) == 0 && err == nil {
		err = fmt.Errorf("no Markdown files in %s", dir)
	}
	return out, err
}

func row(label string, ds []time.Duration) {
	if len(ds) == 0 {
		fmt.Printf("| %s | 0 | | | |\n", label)
		return
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	p := func(q float64) string {
		i := int(q*float64(len(s))+0.5) - 1
		i = max(0, min(i, len(s)-1))
		return fmt.Sprintf("%.1f ms", float64(s[i].Microseconds())/1000)
	}
	fmt.Printf("| %s | %d | %s | %s | %s |\n", label, len(s), p(0.5), p(0.9), p(1))
}

// cpuTicks is the process's user + system time in clock ticks, fields 14
// and 15 of /proc/PID/stat (after the parenthesised command name).
func cpuTicks(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read the watcher's CPU time (Linux only): %w", err)
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime, nil
}

func clockTicks() int64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err != nil {
		return 100
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil || n <= 0 {
		return 100
	}
	return n
}

func rss(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "?"
}
