package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/canon-md/canon/gitsync"
)

// benchHook measures the hooks git would call, run by hand (no hooks are
// installed in the corpus, so git itself never starts canon):
//   - post-commit after a commit changing one document, against
//     `git diff-tree -r HEAD~1 HEAD` and go-git's object-storage open;
//   - post-checkout between two branches 1,000 documents apart.
func (b *bench) benchHook(c *corpus) error {
	if err := b.fullIndex(c); err != nil {
		return err
	}
	if err := b.postCommit(c); err != nil {
		return err
	}
	return b.postCheckout(c)
}

// postCommit measures, each run, the commit a user makes in a gc'd
// repository: HEAD~1 is the generated commit (packed), HEAD a new commit
// (loose) changing one document. Between runs the repository and the index go
// back to the generated commit, untimed; the new commit is the same each time.
func (b *bench) postCommit(c *corpus) error {
	diff := b.row(c, "hook", "floor: `git diff-tree -r HEAD~1 HEAD`", "ms", nil, nil)
	hook := b.row(c, "hook", "`canon hook post-commit`, one document changed", "ms", tPostCommit, diff)
	open := b.row(c, "hook", "go-git: open the object storage, read HEAD and HEAD~1 (in process)", "ms", nil, nil)
	openProc := b.row(c, "hook", "the same as a process of its own (start-up included, as in canon's)", "ms", nil, nil)
	rest := &Row{Case: "hook", What: "`canon hook post-commit` minus that process (median of per-run differences)",
		Size: c.n, Docs: c.n + c.adrs, Unit: "ms", tgt: tFlat, flat: true}
	b.rows = append(b.rows, rest)

	series := time.Now()
	for i := -1; i < b.hookRuns; i++ {
		if b.spent(series, c, "post-commit", i, b.hookRuns) {
			break
		}
		if err := b.backToBase(c); err != nil {
			return err
		}
		head, err := b.gencorpusTouch(c, 1, "")
		if err != nil {
			return err
		}
		p, err := b.hook(c, head, "post-commit")
		if err != nil {
			return err
		}
		d, err := run(c.dir, gitEnv(), "git", "diff-tree", "-r", "HEAD~1", "HEAD")
		if err != nil {
			return err
		}
		if n := strings.Count(d.stdout, "\n"); n != 1 {
			return fmt.Errorf("git diff-tree listed %d changes, want 1", n)
		}
		o, err := gogitOpen(c.dir, head, c.base)
		if err != nil {
			return err
		}
		op, err := run(c.dir, gitEnv(), b.self, "-gogit-open", c.dir, head, c.base)
		if err != nil {
			return err
		}
		if i < 0 {
			continue
		}
		hook.add(ms(p.wall))
		diff.add(ms(d.wall))
		open.add(ms(o))
		openProc.add(ms(op.wall))
		rest.add(ms(p.wall) - ms(op.wall))
	}
	logf("[%s] post-commit: canon %.1f ms, diff-tree %.1f ms, go-git open %.1f ms (medians)", c.name(),
		median(hook.Samples), median(diff.Samples), median(open.Samples))
	if err := b.verify(c, "post-commit"); err != nil {
		return err
	}
	return b.backToBase(c)
}

// hook runs `canon hook ARGS...` as git would, and checks that it said
// nothing and left the index at want.
func (b *bench) hook(c *corpus, want string, args ...string) (proc, error) {
	p, err := b.canonRun(c, append([]string{"hook"}, args...)...)
	if err != nil {
		return p, err
	}
	if s := strings.TrimSpace(p.stderr); s != "" {
		return p, fmt.Errorf("canon hook %s reported: %s", args[0], s)
	}
	return p, expectIndexed(c.dir, want, "after canon hook "+args[0])
}

// backToBase resets the corpus to the generated commit and lets canon catch
// up with it (untimed).
func (b *bench) backToBase(c *corpus) error {
	if _, err := git(c.dir, "reset", "-q", "--hard", c.base); err != nil {
		return err
	}
	if _, err := b.canonRun(c, "hook"); err != nil {
		return err
	}
	return expectIndexed(c.dir, c.base, "after catching up with the generated commit")
}

// gogitOpen times what a catch-up from old to head pays in go-git before it
// can diff: opening the object storage and reading both commits. The old
// commit is packed, so this includes decoding the pack index, which grows
// with the number of objects.
func gogitOpen(dir, head, old string) (time.Duration, error) {
	repo, err := gitsync.Discover(dir)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	obj := gitsync.OpenObjects(repo)
	_, err = obj.CommitTree(head)
	if err == nil {
		_, err = obj.CommitTree(old)
	}
	d := time.Since(start)
	obj.Close()
	return d, err
}

// postCheckout switches back and forth between main (the generated commit,
// packed) and a branch "wide" whose one commit modifies 1,000 items (loose),
// and times the hook git would run after each switch.
func (b *bench) postCheckout(c *corpus) error {
	k := min(1000, c.n)
	mainHead, err := git(c.dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	wideHead, err := b.gencorpusTouch(c, k, "wide") // leaves "wide" checked out
	if err != nil {
		return err
	}
	// Untimed: bring the index to "wide", where git now is.
	if _, err := b.canonRun(c, "hook", "post-checkout", mainHead, wideHead, "1"); err != nil {
		return err
	}
	if err := expectIndexed(c.dir, wideHead, "after the first post-checkout"); err != nil {
		return err
	}

	what := fmt.Sprintf("%s documents differ", commas(k))
	diff := b.row(c, "hook", "floor: `git diff-tree -r OLD NEW`, "+what, "ms", nil, nil)
	hook := b.row(c, "hook", "`canon hook post-checkout OLD NEW 1`, "+what, "ms", tCheckout, diff)
	co := b.row(c, "hook", "`git checkout` itself (not canon; for scale), "+what, "ms", nil, nil)

	branch := map[string]string{mainHead: "main", wideHead: "wide"}
	from, to := wideHead, mainHead
	series := time.Now()
	for i := -1; i < b.hookRuns; i++ {
		if b.spent(series, c, "post-checkout", i, b.hookRuns) {
			break
		}
		g, err := run(c.dir, gitEnv(), "git", "checkout", "-q", branch[to])
		if err != nil {
			return err
		}
		p, err := b.hook(c, to, "post-checkout", from, to, "1")
		if err != nil {
			return err
		}
		d, err := run(c.dir, gitEnv(), "git", "diff-tree", "-r", from, to)
		if err != nil {
			return err
		}
		if n := strings.Count(d.stdout, "\n"); n != k {
			return fmt.Errorf("git diff-tree %s..%s listed %d changes, want %d", branch[from], branch[to], n, k)
		}
		if i >= 0 {
			hook.add(ms(p.wall))
			diff.add(ms(d.wall))
			co.add(ms(g.wall))
		}
		from, to = to, from
	}
	logf("[%s] post-checkout: canon %.1f ms, diff-tree %.1f ms, git checkout %.1f ms (medians)", c.name(),
		median(hook.Samples), median(diff.Samples), median(co.Samples))
	return b.verify(c, "post-checkout")
}

// verify checks, once per case, that the index canon kept up to date by
// hooks matches a fresh build: `canon status` says it is not behind and
// `canon verify` finds no difference.
func (b *bench) verify(c *corpus, after string) error {
	head, err := git(c.dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	if err := expectIndexed(c.dir, head, "after the "+after+" runs"); err != nil {
		return err
	}
	st, err := b.status(c)
	if err != nil {
		return err
	}
	if st.Behind {
		return fmt.Errorf("after the %s runs canon status says the index is behind", after)
	}
	p, err := b.canonRun(c, "verify")
	if err != nil {
		return fmt.Errorf("after the %s runs the index differs from a fresh build: %w", after, err)
	}
	b.note("%s @%s, canon verify: %s", after, c.name(), strings.TrimSpace(p.stdout))
	return nil
}

func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
