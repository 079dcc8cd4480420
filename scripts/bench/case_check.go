package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// checkAllMax is the largest corpus `canon check --all` runs on: its target
// is defined at 10k, and at 100k it would take most of the run.
const checkAllMax = 10000

// benchCheck: `canon check` with one staged document, against the git call
// it cannot avoid (`git diff --cached --raw -z`); then `canon check --all`.
func (b *bench) benchCheck(c *corpus) error {
	if err := b.fullIndex(c); err != nil {
		return err
	}
	head, err := git(c.dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	// The first item in path order: deterministic, and it has links to check.
	list, err := git(c.dir, "ls-files", "--", "*/items/*.md")
	if err != nil {
		return err
	}
	rel, _, _ := strings.Cut(list, "\n")
	if rel == "" {
		return fmt.Errorf("the corpus has no items")
	}
	path := filepath.Join(c.dir, filepath.FromSlash(rel))
	orig, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	edited := append(append([]byte{}, orig...), "2025-01-01 12:00 [agent=bench] A staged edit for the benchmark.\n"...)

	diff := b.row(c, "check", "floor: `git diff --cached --raw -z`", "ms", nil, nil)
	check := b.row(c, "check", "`canon check`, one staged document (new problems only)", "ms", tCheck, diff)
	series := time.Now()
	for i := -1; i < b.hookRuns; i++ {
		if b.spent(series, c, "canon check", i, b.hookRuns) {
			break
		}
		if err := os.WriteFile(path, edited, 0o644); err != nil {
			return err
		}
		if _, err := git(c.dir, "add", "--", rel); err != nil {
			return err
		}
		if err := expectIndexed(c.dir, head, "before canon check"); err != nil {
			return err
		}
		p, err := b.canonRun(c, "check")
		if err != nil {
			return err
		}
		if !strings.Contains(p.stdout, "no new problems in 1 file") && !strings.Contains(p.stdout, "no problems in 1 file") {
			return fmt.Errorf("canon check with %s staged said: %s", rel, lastLines(p.stdout+p.stderr, 5))
		}
		d, err := run(c.dir, gitEnv(), "git", "diff", "--cached", "--raw", "-z")
		if err != nil {
			return err
		}
		if !strings.Contains(d.stdout, rel) {
			return fmt.Errorf("git diff --cached does not list %s", rel)
		}
		for _, args := range [][]string{{"reset", "-q", "--", rel}, {"checkout", "-q", "--", rel}} {
			if _, err := git(c.dir, args...); err != nil {
				return err
			}
		}
		if i >= 0 {
			check.add(ms(p.wall))
			diff.add(ms(d.wall))
		}
	}
	logf("[%s] check: canon %.1f ms, git diff --cached %.1f ms (medians)", c.name(), median(check.Samples), median(diff.Samples))
	if dirty, _ := git(c.dir, "status", "--porcelain"); dirty != "" {
		return fmt.Errorf("the corpus is not clean after the check runs: %s", lastLines(dirty, 3))
	}

	if c.n > checkAllMax {
		return nil
	}
	all := b.row(c, "check", "`canon check --all`", "ms", tCheckAll, nil)
	rss := b.row(c, "check", "`canon check --all` peak RSS", "MB", nil, nil)
	want := fmt.Sprintf("no problems in %s files", commas(c.n+c.adrs))
	series = time.Now()
	for i := -1; i < b.runs; i++ {
		if b.spent(series, c, "canon check --all", i, b.runs) {
			break
		}
		p, err := b.canonRun(c, "check", "--all")
		if err != nil {
			return err
		}
		if !strings.Contains(p.stdout, want) && !strings.Contains(p.stdout, fmt.Sprintf("no problems in %d files", c.n+c.adrs)) {
			return fmt.Errorf("canon check --all said: %s (want %q)", lastLines(p.stdout+p.stderr, 5), want)
		}
		if i >= 0 {
			all.add(ms(p.wall))
			rss.add(p.rssMB)
		}
	}
	logf("[%s] check --all: %.0f ms, %.0f MB (medians)", c.name(), median(all.Samples), median(rss.Samples))
	return nil
}
