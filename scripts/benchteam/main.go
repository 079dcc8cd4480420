// Command benchteam measures canon at team scale (issue 46): a
// repository with 0, 200 and 1,000 remote refs forked from points of a
// real history, each changing documents. For each number of refs it
// times, with the binary as a user runs it (whole processes, medians of
// runs taking turns with their floors and with the other numbers of
// refs): the hooks of a one-document commit (pre-commit, post-commit), a
// checkout of a branch forked a few hundred commits back and back
// (post-checkout), the pre-push hook; the first canon ready after a
// commit and after a checkout; canon branches, id next, show --branches
// and MCP claims; each one's CPU time and peak RSS. canon verify must
// find the index and overlays equal to a rebuild at the end.
//
// The corpus is either a generated one (-corpus: gencorpus -git, given a
// history and remote refs refs/remotes/origin/bNNNN by git fast-import,
// then packed as a clone's), or a real repository (-repo: a clone or a
// bare mirror holding GitHub's refs/pull/N/head; its most recently
// updated pull requests become refs/remotes/origin/pr/N). It writes only
// under -work. Run it through scripts/bench_team.sh; bench_guard.sh uses
// -setup-only for its corpus with remote refs. No package imports it: it
// is off the ladder.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

var (
	genCorpus = flag.String("corpus", "", "a generated corpus (gencorpus -git) to give a history and remote refs")
	realRepo  = flag.String("repo", "", "a real repository (a clone or bare mirror with refs/pull/N/head)")
	label     = flag.String("label", "", "the corpus's name in the report (default: the folder's)")
	work      = flag.String("work", "", "a folder to work in")
	canonBin  = flag.String("canon", "bin/canon", "the canon binary (copied into -work first)")
	refsFlag  = flag.String("refs", "0,200,1000", "numbers of remote refs, each a copy of the corpus")
	history   = flag.Int("history", 1000, "commits on main (generated corpus)")
	back      = flag.Int("back", 300, "the feature branch forks this many first-parent commits back")
	near      = flag.Int("near", 10, "the near branch forks this many first-parent commits back (0: no near branch)")
	seed      = flag.Int64("seed", 1, "seed of the generated history and refs")
	runs      = flag.Int("runs", 11, "timed turns (after one warm-up turn)")
	reuse     = flag.Bool("reuse", false, "keep -work's base repository (history, refs, index) from an earlier run")
	setupOnly = flag.Bool("setup-only", false, "make the repositories, print their folders, measure nothing")
	only      = flag.String("only", "commit,ready,checkout,commands", "steps to time")
	jsonOut   = flag.String("json", "", "write every sample here (default: WORK/result.json)")
	profile   = flag.String("profile", "", "after the runs, write CPU profiles (CANON_CPUPROFILE) of the first ready after a commit and after a checkout, at the most refs, into this folder")
)

func main() {
	flag.Parse()
	must(run())
}

// run makes the corpus and a repository per count of refs, times the
// steps in them, and reports, as the flags say.
func run() error {
	if (*genCorpus == "") == (*realRepo == "") || *work == "" {
		return fmt.Errorf("give -work and one of -corpus and -repo")
	}
	var counts []int
	for _, f := range strings.Split(*refsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return fmt.Errorf("-refs: %q is not a number of refs", f)
		}
		counts = append(counts, n)
	}
	sort.Ints(counts)
	maxRefs := counts[len(counts)-1]
	dir, err := filepath.Abs(*work)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bin := filepath.Join(dir, "canon")
	if _, _, err := proc("", "", nil, "cp", *canonBin, bin); err != nil {
		return err
	}
	version, _, _ := proc("", "", nil, bin, "--version")
	src := *genCorpus + *realRepo
	name := *label
	if name == "" {
		name = filepath.Base(strings.TrimSuffix(src, "/"))
		if name == "repo" {
			name = filepath.Base(filepath.Dir(strings.TrimSuffix(src, "/")))
		}
	}
	startLoad := loadavg()

	c, err := prepareCorpus(dir, bin, src, name, maxRefs)
	if err != nil {
		return err
	}
	c.Label = name
	logf("[%s] %d documents, %d commits on %s, %d remote refs made; %s", name, c.Docs, c.Commits, c.Main, len(c.Remote), c.Objects)

	repos, err := makeRepos(c, dir, bin, name, counts)
	if err != nil {
		return err
	}
	if *setupOnly {
		for _, r := range repos {
			fmt.Println(r.Dir)
		}
		return nil
	}

	loads, err := runTurns(c, repos, name)
	if err != nil {
		return err
	}
	for _, r := range repos {
		if err := r.verify(); err != nil {
			return err
		}
	}
	if *profile != "" {
		if err := profiles(repos[len(repos)-1], *profile); err != nil {
			return err
		}
	}
	rep := &report{Corpus: c, Repos: repos, Loads: loads, StartLoad: startLoad, Version: strings.TrimSpace(version),
		Command: "go run ./scripts/benchteam " + strings.Join(os.Args[1:], " "), Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Runs: *runs}
	rep.print(os.Stdout)
	out := *jsonOut
	if out == "" {
		out = filepath.Join(dir, "result.json")
	}
	data, err := json.MarshalIndent(rep.raw(), "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// prepareCorpus makes the corpus the refs are made from in dir/base,
// its history and remote refs, indexed (canon init learns a real
// repository's settings); with -reuse, the one a run before left when it
// fits the flags, brought up to date.
func prepareCorpus(dir, bin, src, name string, maxRefs int) (*corpus, error) {
	base, saved := filepath.Join(dir, "base"), filepath.Join(dir, "corpus.json")
	c, err := loadCorpus(saved, base)
	if !*reuse || err != nil || len(c.Remote) < maxRefs || (c.Kind == "generated" && c.Commits != *history+1) || c.Back != *back || c.Near != *near {
		t := time.Now()
		logf("[%s] setting up %s: history, %d remote refs ...", name, src, maxRefs)
		if err := os.RemoveAll(base); err != nil {
			return nil, err
		}
		if *genCorpus != "" {
			c, err = setupGenerated(src, base, *history, maxRefs, *back, *near, *seed)
		} else {
			c, err = setupReal(src, base, maxRefs, *back, *near)
		}
		if err != nil {
			return nil, err
		}
		logf("[%s] history and refs made in %s; indexing ...", name, since(t))
		args := []string{"index", "--full"}
		if _, err := os.Stat(filepath.Join(base, ".canon", "config.yaml")); c.Kind == "real" && err != nil {
			args = []string{"init"} // learns the repository's settings, then indexes
		}
		_, s, err := proc(base, "", nil, bin, args...)
		if err != nil {
			return nil, err
		}
		logf("[%s] canon %s: %s", name, args[0], s.Wall.Round(time.Millisecond))
		if err := saveCorpus(c, saved); err != nil {
			return nil, err
		}
	} else if _, _, err := proc(base, "", nil, bin, "sync"); err != nil { // a build of another schema rebuilds here, once
		return nil, err
	}
	return c, nil
}

// makeRepos makes a repository for each count of remote refs, and picks
// the document canon show is timed on when the corpus names none.
func makeRepos(c *corpus, dir, bin, name string, counts []int) ([]*repo, error) {
	var repos []*repo
	for _, n := range counts {
		t := time.Now()
		r, err := makeRepo(c, filepath.Join(dir, fmt.Sprintf("repo-%d", n)), bin, n)
		if err != nil {
			return nil, err
		}
		logf("[%s] %d refs: followed %d, left out %d; overlays from nothing %s (%s)", name, n, r.Followed, r.LeftOut, r.Nothing.Wall.Round(time.Millisecond), since(t))
		repos = append(repos, r)
	}
	if c.Show == "" {
		for _, r := range repos {
			if r.Refs > 0 {
				var err error
				if c.Show, err = showTarget(r, ""); err != nil {
					return nil, err
				}
				break
			}
		}
		if c.Show == "" {
			c.Show = c.Edit[0]
		}
	}
	return repos, nil
}

// runTurns times the steps -only names in every repository, turn by turn
// (the first a warm-up that keeps only the peak RSS), in an order that
// changes each turn, and returns the load average before each turn and
// after the last.
func runTurns(c *corpus, repos []*repo, name string) ([]float64, error) {
	steps := map[string]func(*repo, int) error{
		"commit":   (*repo).stepCommit,
		"ready":    (*repo).stepReady,
		"checkout": (*repo).stepCheckout,
		"commands": func(r *repo, t int) error { return r.stepCommands(t, c.Show) },
	}
	var order []string
	for _, s := range strings.Split(*only, ",") {
		s = strings.TrimSpace(s)
		if steps[s] == nil {
			return nil, fmt.Errorf("-only: no step %q (commit, ready, checkout, commands)", s)
		}
		order = append(order, s)
	}
	var loads []float64
	began := time.Now()
	for t := 0; t <= *runs; t++ {
		loads = append(loads, loadavg())
		rssTurn = t == 0
		for _, step := range order {
			for i := range repos {
				r := repos[(i+t)%len(repos)]
				if t%2 == 1 {
					r = repos[(len(repos)-1-i+t)%len(repos)]
				}
				if err := steps[step](r, t); err != nil {
					return nil, err
				}
			}
		}
		if t == 0 {
			for _, r := range repos {
				r.rss, r.s = r.s, nil // the warm-up turn: peak RSS only
			}
		}
		logf("[%s] turn %d of %d done (load %.2f, %s)", name, t, *runs, loadavg(), since(began))
	}
	loads = append(loads, loadavg())
	return loads, nil
}

// profiles writes CPU profiles of canon ready after a commit and after a
// checkout in r.
func profiles(r *repo, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	env := func(f string) []string { return gitEnv("CANON_CPUPROFILE=" + filepath.Join(dir, f)) }
	if err := r.stageOne(); err != nil {
		return err
	}
	if err := r.commit(); err != nil {
		return err
	}
	if _, _, err := proc(r.Dir, "", nil, r.bin, "hook", "post-commit"); err != nil {
		return err
	}
	if _, _, err := proc(r.Dir, "", env(fmt.Sprintf("ready-after-commit-%d.pprof", r.Refs)), r.bin, "ready"); err != nil {
		return err
	}
	if err := r.checkout("feature"); err != nil {
		return err
	}
	if _, _, err := proc(r.Dir, "", env(fmt.Sprintf("ready-after-checkout-%d.pprof", r.Refs)), r.bin, "ready"); err != nil {
		return err
	}
	logf("profiles in %s (go tool pprof -top %s FILE)", dir, r.bin)
	return r.checkout(r.c.Main)
}
