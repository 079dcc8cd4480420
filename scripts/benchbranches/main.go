// Command benchbranches measures the overlays of other refs (ADR-0042,
// issue 26) on a generated corpus: canon ready with overlays against canon
// ready --here, the overlay update after a commit on one branch against git
// diff-tree of that commit, and the catch-up after a git fetch that moves
// many remote refs. Run it through scripts/bench_branches.sh.
//
// It writes only under -work. It measures canon ready from outside (the
// binary, as a user runs it) and the overlay updates in process
// (gitsync.Session.Overlays), which a command runs after its index caught
// up. No package imports it: it is off the ladder.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/canon-md/canon/gitsync"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchbranches: error:", err)
		os.Exit(1)
	}
}

var (
	corpus   = flag.String("corpus", "", "a corpus repository (gencorpus -git)")
	work     = flag.String("work", "", "a folder to work in (emptied first)")
	canon    = flag.String("canon", "bin/canon", "the canon binary")
	branches = flag.Int("branches", 50, "branches")
	perDocs  = flag.Int("docs", 20, "documents each branch changes")
	runs     = flag.Int("runs", 11, "runs of each timing")
	reuse    = flag.Bool("reuse", false, "keep -work's repository, index and branches from an earlier run (profiling)")
	cpuProf  = flag.String("cpuprofile", "", "write a CPU profile of the in-process catch-ups after git fetch to this file")
	only     = flag.String("only", "ready,commit,fetch,anchor", "the timings to take")
	backlog  = flag.String("backlog", "", "Backlog.md's backlog command, for the anchor (none: the anchor is skipped)")
	anchorN  = flag.Int("anchor-items", 0, "at most this many of the corpus's items become Backlog.md tasks (0: all)")
	anchorTO = flag.Duration("anchor-timeout", 10*time.Minute, "stop a Backlog.md board load after this long")
)

func run() error {
	flag.Parse()
	if *corpus == "" || *work == "" {
		return fmt.Errorf("-corpus and -work are required")
	}
	bin, err := filepath.Abs(*canon)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(*work) // origin's url is the remote's path
	if err != nil {
		return err
	}
	repo, remote := filepath.Join(dir, "repo"), filepath.Join(dir, "remote.git")
	if _, err := os.Stat(filepath.Join(repo, ".git", "canon", "index.db")); *reuse && err == nil {
		files, err := taskFiles(repo)
		if err != nil {
			return err
		}
		return measure(bin, repo, remote, files)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if _, err := sh("", "git", "clone", "-q", *corpus, repo); err != nil {
		return err
	}
	if _, err := sh("", "git", "clone", "-q", "--bare", *corpus, remote); err != nil {
		return err
	}
	if _, err := sh(repo, "git", "remote", "set-url", "origin", remote); err != nil {
		return err
	}
	took := timeIt(func() error { _, err := sh(repo, bin, "index", "--full"); return err })
	fmt.Printf("index build: %s\n", took)

	files, err := taskFiles(repo)
	if err != nil {
		return err
	}
	if len(files) < *branches**perDocs {
		return fmt.Errorf("the corpus has %d task files, fewer than %d", len(files), *branches**perDocs)
	}
	head, err := sh(repo, "git", "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	var stream bytes.Buffer
	for b := 0; b < *branches; b++ {
		var changes [][2]string
		for _, f := range files[b**perDocs : (b+1)**perDocs] {
			data, err := os.ReadFile(filepath.Join(repo, f))
			if err != nil {
				return err
			}
			changes = append(changes, [2]string{f, stateLine.ReplaceAllString(string(data), "state: InProgress")})
		}
		commit(&stream, fmt.Sprintf("refs/heads/b%d", b), head, changes)
	}
	if err := fastImport(repo, &stream); err != nil {
		return err
	}
	first := timeIt(func() error { _, err := sh(repo, bin, "branches", "--json"); return err })
	fmt.Printf("overlays from nothing (%d refs × %d documents): %s\n", *branches, *perDocs, first)
	return measure(bin, repo, remote, files)
}

// measure takes the timings -only names on a repository whose branches
// are made and whose index is built.
func measure(bin, repo, remote string, files []string) error {
	take := map[string]bool{}
	for _, t := range strings.Split(*only, ",") {
		take[strings.TrimSpace(t)] = true
	}
	if take["ready"] {
		var with, here []time.Duration
		for i := 0; i < *runs; i++ {
			with = append(with, timeIt(func() error { _, err := sh(repo, bin, "ready", "--json"); return err }))
			here = append(here, timeIt(func() error { _, err := sh(repo, bin, "ready", "--here", "--json"); return err }))
		}
		fmt.Printf("| canon ready (overlays, %d refs) | %s | canon ready --here %s | %.2fx |\n", *branches, median(with), median(here), ratio(median(with), median(here)))
	}
	ctx := context.Background()
	s, err := gitsync.Open(repo, "benchbranches")
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Fresh(ctx); err != nil {
		return err
	}
	if _, err := s.Overlays(ctx); err != nil {
		return err
	}
	if take["commit"] {
		if err := commitStep(ctx, s, repo, files[0]); err != nil {
			return err
		}
	}
	if take["fetch"] {
		if err := fetchStep(ctx, s, bin, repo, remote, files); err != nil {
			return err
		}
	}
	if take["anchor"] {
		if *backlog == "" {
			fmt.Println("Backlog.md anchor: skipped (no backlog command: npm install --prefix scripts/out/npm backlog.md)")
			return nil
		}
		return anchor(*backlog, repo, filepath.Join(filepath.Dir(repo), "backlog-md"), *anchorTO)
	}
	return nil
}

// commitStep times the overlay update after a commit on one branch
// against git diff-tree of that commit.
func commitStep(ctx context.Context, s *gitsync.Session, repo, one string) error {
	var step, diffTree []time.Duration
	for i := 0; i < *runs; i++ {
		data, err := os.ReadFile(filepath.Join(repo, one))
		if err != nil {
			return err
		}
		var st bytes.Buffer
		commit(&st, "refs/heads/b0", "refs/heads/b0^0", [][2]string{{one, stateLine.ReplaceAllString(string(data), fmt.Sprintf("state: Review%d", i))}})
		if err := fastImport(repo, &st); err != nil {
			return err
		}
		step = append(step, timeIt(func() error { _, err := s.Overlays(ctx); return err }))
		diffTree = append(diffTree, timeIt(func() error { _, err := sh(repo, "git", "diff-tree", "-r", "--raw", "b0^", "b0"); return err }))
	}
	fmt.Printf("| overlay update after a commit on one branch | %s | git diff-tree %s | %.2fx |\n", median(step), median(diffTree), ratio(median(step), median(diffTree)))
	return nil
}

// fetchStep times the catch-up after a git fetch that moves every remote
// ref: remote-tracking refs are pushed and fetched once, then moved in the
// remote and fetched again, without a hook. Every other run is timed from
// outside: canon branches (the cheapest command that reads the overlays)
// after the fetch, against canon branches when nothing moved.
func fetchStep(ctx context.Context, s *gitsync.Session, bin, repo, remote string, files []string) error {
	if _, err := sh(repo, "git", "push", "-q", "-f", "origin", "refs/heads/b*:refs/heads/b*"); err != nil {
		return err
	}
	if _, err := sh(repo, "git", "fetch", "-q", "origin"); err != nil {
		return err
	}
	if _, err := s.Overlays(ctx); err != nil {
		return err
	}
	var fetched, fetchedCLI, still, cpu []time.Duration
	if *cpuProf != "" { // the loop below: git runs in other processes
		f, err := os.Create(*cpuProf)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	branchesCLI := func() error { _, err := sh(repo, bin, "branches", "--json"); return err }
	for i := 0; i < *runs; i++ {
		var st bytes.Buffer
		for b := 0; b < *branches; b++ {
			f := files[b**perDocs+1]
			data, err := os.ReadFile(filepath.Join(repo, f))
			if err != nil {
				return err
			}
			commit(&st, fmt.Sprintf("refs/heads/b%d", b), fmt.Sprintf("refs/heads/b%d^0", b),
				[][2]string{{f, stateLine.ReplaceAllString(string(data), fmt.Sprintf("state: Fetched%d", i))}})
		}
		if err := fastImport(remote, &st); err != nil {
			return err
		}
		if _, err := sh(repo, "git", "fetch", "-q", "origin"); err != nil {
			return err
		}
		if i%2 == 0 {
			c0 := cpuTime()
			fetched = append(fetched, timeIt(func() error { _, err := s.Overlays(ctx); return err }))
			cpu = append(cpu, cpuTime()-c0)
		} else {
			fetchedCLI = append(fetchedCLI, timeIt(branchesCLI))
		}
		still = append(still, timeIt(branchesCLI))
	}
	fmt.Printf("| catch-up after git fetch moved %d remote refs | %s (CPU %s) | canon branches then %s, with nothing moved %s | |\n",
		*branches, median(fetched), median(cpu), median(fetchedCLI), median(still))
	return nil
}

var stateLine = regexp.MustCompile(`(?m)^state: .*$`)

// taskFiles lists the corpus's task documents, sorted.
func taskFiles(repo string) ([]string, error) {
	out, err := sh(repo, "git", "ls-files", "--", "*/items/task/*.md")
	if err != nil {
		return nil, err
	}
	files := strings.Fields(out)
	sort.Strings(files)
	return files, nil
}

// commit writes one fast-import commit on ref from parent.
func commit(b *bytes.Buffer, ref, parent string, changes [][2]string) {
	msg := "bench: " + ref
	fmt.Fprintf(b, "commit %s\ncommitter Bench <bench@canon.invalid> 1740830400 +0000\ndata %d\n%s\nfrom %s\n", ref, len(msg), msg, parent)
	for _, c := range changes {
		fmt.Fprintf(b, "M 100644 inline %s\ndata %d\n%s\n", c[0], len(c[1]), c[1])
	}
	b.WriteString("\n")
}

func fastImport(dir string, stream *bytes.Buffer) error {
	cmd := exec.Command("git", "fast-import", "--quiet", "--force")
	cmd.Dir = dir
	cmd.Stdin = stream
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %w: %s", err, out)
	}
	return nil
}

func sh(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

// cpuTime is the CPU time this process used (user and system): what a
// step costs whatever else the machine runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func timeIt(f func() error) time.Duration {
	t := time.Now()
	if err := f(); err != nil {
		fmt.Fprintln(os.Stderr, "benchbranches:", err)
		os.Exit(1)
	}
	return time.Since(t)
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration{}, d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2].Round(100 * time.Microsecond)
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }
