package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

type config struct {
	n, adrs int
	seed    uint64
	out     string
	git     bool
	touch   int
	branch  string
}

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus: error:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	fs.IntVar(&c.n, "n", 10000, "number of backlog items (at least 5)")
	fs.IntVar(&c.adrs, "adrs", -1, "number of ADRs (default: 2% of -n, at least 1)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed; the same seed gives the same bytes")
	fs.StringVar(&c.out, "out", "", "output folder: must be empty or absent (required); with -touch, an existing corpus repository")
	fs.BoolVar(&c.git, "git", false, "git init the output, commit everything in one reproducible commit, then git gc")
	fs.IntVar(&c.touch, "touch", 0, "instead of generating: append a worklog line to `K` items of the repository in -out and commit them")
	fs.StringVar(&c.branch, "branch", "", "with -touch: create and switch to this branch before committing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gencorpus -out DIR [-n N] [-adrs N] [-seed S] [-git]\n       gencorpus -out DIR -touch K [-seed S] [-branch NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.out == "" {
		return fmt.Errorf("-out is required")
	}
	if c.touch > 0 {
		return runTouch(c, stderr)
	}
	if c.branch != "" {
		return fmt.Errorf("-branch only applies with -touch")
	}
	if c.adrs < 0 {
		c.adrs = max(1, c.n/50)
	}
	start := time.Now()
	st, err := generate(c)
	if err != nil {
		return err
	}
	genTime := time.Since(start)
	line := fmt.Sprintf("gencorpus: %d files (%d items, %d ADRs), %.1f MB in %s, %.2fs",
		st.files, c.n, c.adrs, float64(st.bytes)/1e6, c.out, genTime.Seconds())
	if c.git {
		gstart := time.Now()
		head, err := gitCommitAll(c, st.paths)
		if err != nil {
			return err
		}
		line += fmt.Sprintf("; git commit %s, %.2fs", head, time.Since(gstart).Seconds())
	}
	fmt.Fprintln(stderr, line)
	return nil
}
