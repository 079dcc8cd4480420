package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

type bench struct {
	root     string // canon's repository
	out      string // scripts/out
	canon    string // the binary under test
	gencorp  string // the corpus generator, built once
	self     string // this program, for -gogit-open
	runs     int
	hookRuns int
	budget   time.Duration
	rows     []*Row
	notes    []string
}

type header struct {
	Started  string   `json:"started"`
	Command  string   `json:"command"`
	Machine  machine  `json:"machine"`
	Canon    string   `json:"canon"`
	Sizes    []int    `json:"sizes"`
	Cases    []string `json:"cases"`
	Runs     int      `json:"runs"`
	HookRuns int      `json:"hook_runs"`
	Budget   string   `json:"budget"`
	Notes    []string `json:"notes"`
}

func main() {
	// The benchmark runs itself this way to time go-git's open as a
	// process of its own, on the same footing as canon's process.
	if len(os.Args) == 5 && os.Args[1] == "-gogit-open" {
		if _, err := gogitOpen(os.Args[2], os.Args[3], os.Args[4]); err != nil {
			fmt.Fprintln(os.Stderr, "bench: error:", err)
			os.Exit(1)
		}
		return
	}
	if err := mainErr(); err != nil {
		fmt.Fprintln(os.Stderr, "bench: error:", err)
		os.Exit(1)
	}
}

func mainErr() error {
	sizesFlag := flag.String("sizes", "1000,10000", "corpus sizes in backlog items, comma separated (each gets 2% ADRs on top)")
	large := flag.Bool("large", false, "add the 100k-item corpus (generating it takes about a minute, the run several)")
	runs := flag.Int("runs", 5, "repetitions of the slow measurements (full build, check --all)")
	hookRuns := flag.Int("hook-runs", 20, "repetitions of the fast measurements (hooks, one-file check)")
	budget := flag.Duration("budget", 10*time.Minute, "stop repeating a measurement once its runs have taken this long (0: never); the table shows how many runs each median has")
	casesFlag := flag.String("cases", "index,hook,check", "which cases to run")
	canonBin := flag.String("canon", "bin/canon", "the canon binary to measure")
	repos := flag.String("repo", "", "real repositories (clones or bare mirrors, comma separated) to measure the hooks on their own history; alone, it skips the generated corpora")
	compareFlag := flag.String("compare", "", "OLD.json,NEW.json: print the rows two runs share side by side, and stop")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: scripts/bench.sh [-sizes 1000,10000] [-large] [-runs 5] [-hook-runs 20] [-cases index,hook,check] [-repo PATH,...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see -h)", flag.Arg(0))
	}
	if *compareFlag != "" {
		o, n, ok := strings.Cut(*compareFlag, ",")
		if !ok {
			return fmt.Errorf("-compare takes OLD.json,NEW.json")
		}
		return compare(os.Stdout, o, n)
	}
	sizes, err := parseSizes(*sizesFlag, *large)
	if err != nil {
		return err
	}
	casesSet := false
	flag.Visit(func(f *flag.Flag) { casesSet = casesSet || f.Name == "cases" || f.Name == "sizes" || f.Name == "large" })
	cases := strings.Split(*casesFlag, ",")
	if *repos != "" && !casesSet {
		cases, sizes = nil, nil
	}
	for _, c := range cases {
		if c != "index" && c != "hook" && c != "check" {
			return fmt.Errorf("-cases: unknown case %q (index, hook, check)", c)
		}
	}
	if *runs < 1 || *hookRuns < 1 {
		return fmt.Errorf("-runs and -hook-runs must be at least 1")
	}

	b, err := newBench(*canonBin, *runs, *hookRuns, *budget)
	if err != nil {
		return err
	}

	h := &header{Started: time.Now().UTC().Format(time.RFC3339), Command: os.Getenv("BENCH_COMMAND"),
		Machine: describeMachine(), Canon: b.describeCanon(), Sizes: sizes, Cases: cases, Runs: *runs, HookRuns: *hookRuns, Budget: budget.String()}
	if h.Command == "" {
		h.Command = "go run -tags sqlite_fts5 ./scripts/bench " + shellQuote(os.Args[1:])
	}
	logf("canon %s; sizes %v; cases %v", h.Canon, sizes, cases)
	if b.gencorp, err = b.buildGencorpus(); err != nil {
		return err
	}
	if err := b.runCorpora(sizes, cases); err != nil {
		return err
	}
	if err := b.runHistories(*repos); err != nil {
		return err
	}
	return b.writeResults(h)
}

// parseSizes reads -sizes (adding 100,000 items with -large): sorted,
// each once.
func parseSizes(sizesFlag string, large bool) ([]int, error) {
	var sizes []int
	for _, s := range strings.Split(sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 5 {
			return nil, fmt.Errorf("-sizes: %q is not a number of items (at least 5)", s)
		}
		sizes = append(sizes, n)
	}
	if large && !slices.Contains(sizes, 100000) {
		sizes = append(sizes, 100000)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	return sizes, nil
}

// newBench sets a run up from the root of canon's repository: the canon
// binary to measure (a note when the sources are newer) and the folder the
// results go to.
func newBench(canonBin string, runs, hookRuns int, budget time.Duration) (*bench, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.Contains(string(data), "module github.com/canon-md/canon\n") {
		return nil, fmt.Errorf("run from the root of canon's repository (scripts/bench.sh does)")
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	b := &bench{root: root, out: filepath.Join(root, "scripts", "out"), runs: runs, hookRuns: hookRuns, budget: budget, self: self}
	b.canon, err = filepath.Abs(canonBin)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(b.canon); err != nil {
		return nil, fmt.Errorf("%s not found: run make build", canonBin)
	}
	if newer := newerSource(root, b.canon); newer != "" {
		b.note("%s is older than %s: the figures are for the last build, not the sources (make bench builds first)", canonBin, newer)
	}
	if err := os.MkdirAll(b.out, 0o755); err != nil {
		return nil, err
	}
	return b, nil
}

// runCorpora measures each case on the generated corpus of each size.
func (b *bench) runCorpora(sizes []int, cases []string) error {
	for _, n := range sizes {
		c, err := b.corpus(n)
		if err != nil {
			return err
		}
		for _, name := range cases {
			logf("[%s] %s", sizeLabel(n), name)
			var err error
			switch name {
			case "index":
				err = b.benchIndex(c)
			case "hook":
				err = b.benchHook(c)
			case "check":
				err = b.benchCheck(c)
			}
			if err != nil {
				return fmt.Errorf("%s at %s: %w", name, sizeLabel(n), err)
			}
		}
		if err := b.reset(c); err != nil {
			return err
		}
	}
	return nil
}

// runHistories measures the hooks on the history of each real repository
// repos names (comma separated).
func (b *bench) runHistories(repos string) error {
	for _, src := range strings.Split(repos, ",") {
		if src = strings.TrimSpace(src); src == "" {
			continue
		}
		h, err := b.prepareHistory(src)
		if err != nil {
			return err
		}
		if err := b.benchHistory(h); err != nil {
			return fmt.Errorf("history of %s: %w", src, err)
		}
	}
	return nil
}

// writeResults prints the table and writes it, with the raw numbers as
// JSON, into the results folder.
func (b *bench) writeResults(h *header) error {
	finish(b.rows)
	h.Machine.LoadEnd = loadAvg()
	h.Notes = b.notes
	stamp := time.Now().UTC().Format("20060102-150405")
	var md strings.Builder
	writeMarkdown(&md, h, b.rows)
	fmt.Print(md.String())
	raw, err := json.MarshalIndent(struct {
		*header
		Rows []*Row `json:"rows"`
	}{h, b.rows}, "", "  ")
	if err != nil {
		return err
	}
	jsonPath := filepath.Join(b.out, "bench-"+stamp+".json")
	if err := os.WriteFile(jsonPath, append(raw, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(b.out, "bench-"+stamp+".md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	logf("raw numbers: %s", relTo(b.root, jsonPath))
	return nil
}

// row registers a new result row.
func (b *bench) row(c *corpus, kase, what, unit string, tgt *target, floor *Row) *Row {
	r := &Row{Case: kase, What: what, Size: c.n, Docs: c.n + c.adrs, Label: c.label, Unit: unit, tgt: tgt, floor: floor}
	b.rows = append(b.rows, r)
	return r
}

// spent says whether a series that started at start, and has done runs of
// its want, should stop because its time budget is used up.
func (b *bench) spent(start time.Time, c *corpus, what string, done, want int) bool {
	if b.budget <= 0 || done < 1 || done >= want || time.Since(start) < b.budget {
		return false
	}
	b.note("%s @%s: stopped after %d of %d runs, the -budget of %s was spent", what, c.name(), done, want, b.budget)
	return true
}

// note records an observation for the report (and shows it now).
func (b *bench) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	b.notes = append(b.notes, s)
	logf("note: %s", s)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

func relTo(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}

// newerSource names a Go source of canon newer than the binary, if any.
func newerSource(root, bin string) string {
	st, err := os.Stat(bin)
	if err != nil {
		return ""
	}
	var found string
	errStop := errors.New("stop")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error { // errStop ends it early
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "scripts", "bin", "testdata", ".cache":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(st.ModTime()) {
			found = relTo(root, p)
			return errStop
		}
		return nil
	})
	return found
}

type machine struct {
	NProc     int    `json:"nproc"`
	CPU       string `json:"cpu"`
	Memory    string `json:"memory"`
	Kernel    string `json:"kernel"`
	Go        string `json:"go"`
	Git       string `json:"git"`
	LoadStart string `json:"load_start"`
	LoadEnd   string `json:"load_end"`
}

func describeMachine() machine {
	m := machine{NProc: runtime.NumCPU(), CPU: "unknown CPU", Memory: "?", Go: runtime.Version(), LoadStart: loadAvg()}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
					m.Memory = fmt.Sprintf("%.1f GB", kb/1024/1024)
				}
			}
		}
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(data))
	}
	m.Git, _ = git(".", "version")
	return m
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// describeCanon says which canon is measured: its version and the commit of
// the sources, marked when the working tree has changes.
func (b *bench) describeCanon() string {
	p, err := run(b.root, canonEnv(), b.canon, "--version")
	ver := strings.TrimPrefix(strings.TrimSpace(p.stdout), "canon ")
	if err != nil || ver == "" {
		ver = "canon (version unknown)"
	}
	commit, err := git(b.root, "rev-parse", "--short=12", "HEAD")
	if err != nil {
		return ver
	}
	if dirty, _ := git(b.root, "status", "--porcelain"); dirty != "" {
		commit += ", with uncommitted changes"
	}
	return ver + " at " + commit
}
