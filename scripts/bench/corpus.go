package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// corpus is a generated repository in scripts/out/corpus-<N>.
type corpus struct {
	n, adrs int
	dir     string
	base    string // the generated commit; every case starts from it
	label   string // a real repository's name (history); "" for a generated corpus
}

// name is how the report names the corpus: 10k, or rfcs.
func (c *corpus) name() string {
	if c.label != "" {
		return c.label
	}
	return sizeLabel(c.n)
}

const markerName = "bench-corpus" // in the corpus's .git: how it was made

// buildGencorpus compiles the generator once, so that each -touch is one
// short process rather than a go run.
func (b *bench) buildGencorpus() (string, error) {
	bin := filepath.Join(b.out, "bin", "gencorpus")
	if _, err := run(b.root, os.Environ(), "go", "build", "-o", bin, "./scripts/gencorpus"); err != nil {
		return "", err
	}
	return bin, nil
}

// generatorHash identifies the generator's source: a corpus made by another
// version of it is regenerated.
func (b *bench) generatorHash() (string, error) {
	files, err := filepath.Glob(filepath.Join(b.root, "scripts", "gencorpus", "*.go"))
	if err != nil {
		return "", err
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16], nil
}

// corpus returns the corpus of n items, generating it unless a matching one
// exists, reset to its generated commit with no index.
func (b *bench) corpus(n int) (*corpus, error) {
	c := &corpus{n: n, adrs: max(1, n/50), dir: filepath.Join(b.out, fmt.Sprintf("corpus-%d", n))}
	hash, err := b.generatorHash()
	if err != nil {
		return nil, err
	}
	want := fmt.Sprintf("gencorpus -n %d -adrs %d -seed 1 -git\ngenerator %s\n", c.n, c.adrs, hash)
	marker := filepath.Join(c.dir, ".git", markerName)
	if data, err := os.ReadFile(marker); err == nil && strings.HasPrefix(string(data), want) {
		c.base = strings.TrimSpace(strings.TrimPrefix(string(data), want+"base "))
		if _, err := git(c.dir, "cat-file", "-e", c.base+"^{commit}"); err == nil {
			logf("[%s] reusing %s (commit %.12s)", sizeLabel(n), relTo(b.root, c.dir), c.base)
			return c, b.reset(c)
		}
	}
	logf("[%s] generating %s ...", sizeLabel(n), relTo(b.root, c.dir))
	start := time.Now()
	if err := os.RemoveAll(c.dir); err != nil {
		return nil, err
	}
	if _, err := run(b.root, gitEnv(), b.gencorp, "-n", fmt.Sprint(c.n), "-adrs", fmt.Sprint(c.adrs),
		"-seed", "1", "-out", c.dir, "-git"); err != nil {
		return nil, err
	}
	// No automatic gc or maintenance: it would run in the background of a
	// measurement. The benchmark's commits are few and deterministic.
	for _, kv := range [][2]string{{"gc.auto", "0"}, {"maintenance.auto", "false"}} {
		if _, err := git(c.dir, "config", kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	if c.base, err = git(c.dir, "rev-parse", "HEAD"); err != nil {
		return nil, err
	}
	if err := os.WriteFile(marker, []byte(want+"base "+c.base+"\n"), 0o644); err != nil {
		return nil, err
	}
	logf("[%s] generated in %.1fs, commit %.12s", sizeLabel(n), time.Since(start).Seconds(), c.base)
	return c, nil
}

// reset puts the corpus back on main at the generated commit, without the
// benchmark's branch, staged changes or index. The commits the cases add are
// deterministic, so repeated runs reuse the same objects.
func (b *bench) reset(c *corpus) error {
	steps := [][]string{
		{"checkout", "-q", "-f", "main"},
		{"reset", "-q", "--hard", c.base},
		{"clean", "-q", "-f", "-d"},
	}
	for _, args := range steps {
		if _, err := git(c.dir, args...); err != nil {
			return err
		}
	}
	if out, _ := git(c.dir, "for-each-ref", "--format=%(refname:short)", "refs/heads/"); out != "" {
		for _, br := range strings.Fields(out) {
			if br != "main" {
				if _, err := git(c.dir, "branch", "-q", "-D", br); err != nil {
					return err
				}
			}
		}
	}
	for _, p := range []string{filepath.Join(c.dir, ".git", "canon"), floorDB(c)} {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return nil
}

// gencorpusTouch commits k modified items, on a new branch when branch is set.
func (b *bench) gencorpusTouch(c *corpus, k int, branch string) (string, error) {
	args := []string{"-out", c.dir, "-touch", fmt.Sprint(k), "-seed", "1"}
	if branch != "" {
		args = append(args, "-branch", branch)
	}
	if _, err := run(b.root, gitEnv(), b.gencorp, args...); err != nil {
		return "", err
	}
	return git(c.dir, "rev-parse", "HEAD")
}

// canonRun runs canon in the corpus.
func (b *bench) canonRun(c *corpus, args ...string) (proc, error) {
	return run(c.dir, canonEnv(), b.canon, args...)
}

// fullIndex builds the index from nothing, untimed, and checks it reflects HEAD.
func (b *bench) fullIndex(c *corpus) error {
	if err := os.RemoveAll(filepath.Join(c.dir, ".git", "canon")); err != nil {
		return err
	}
	if _, err := b.canonRun(c, "index", "--full"); err != nil {
		return err
	}
	head, err := git(c.dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	return expectIndexed(c.dir, head, "after canon index --full")
}
