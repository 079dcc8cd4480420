package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A real repository's history, not a generated corpus: its pack holds
// years of deltas, and its trees are as deep as people made them.
// -repo names one (a clone or a bare mirror); it is cloned into
// scripts/out/history-<name> (objects hard-linked, packs kept as they are),
// and the hooks are measured on its own commits:
//   - post-commit: for each of the newest first-parent commits that change
//     exactly one Markdown file, HEAD moves from its parent to it (as a
//     commit would) and `canon hook post-commit` runs, against
//     `git diff-tree -r PARENT COMMIT` and go-git's open of the object store;
//   - post-checkout of one commit: back from that commit to its parent;
//   - a branch jump: between HEAD and the commit 200 first-parent steps
//     back, both ways.

// history is a real repository prepared for the benchmark.
type history struct {
	name, dir string
	head      string
	docs      int
	picks     [][2]string // [parent, commit], one Markdown file changed
	far       string      // 200 first-parent commits back
}

// prepareHistory clones src into scripts/out/history-<name> unless it is
// there already, at src's HEAD, and indexes it (untimed).
func (b *bench) prepareHistory(src string) (*history, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(strings.TrimSuffix(strings.TrimSuffix(abs, string(filepath.Separator)), ".git"))
	if name == "repo" { // a bare mirror kept as OWNER+NAME/repo
		name = filepath.Base(filepath.Dir(abs))
	}
	h := &history{name: name, dir: filepath.Join(b.out, "history-"+name)}
	if _, err := os.Stat(filepath.Join(h.dir, ".git")); err != nil {
		logf("[%s] cloning %s ...", name, src)
		if _, err := run(b.out, gitEnv(), "git", "clone", "-q", abs, h.dir); err != nil {
			return nil, err
		}
	}
	if h.head, err = git(h.dir, "rev-parse", "origin/HEAD"); err != nil {
		if h.head, err = git(h.dir, "rev-parse", "HEAD"); err != nil {
			return nil, err
		}
	}
	if _, err := git(h.dir, "checkout", "-q", "--detach", h.head); err != nil {
		return nil, err
	}
	files, err := git(h.dir, "ls-files", "*.md", "*.markdown")
	if err != nil {
		return nil, err
	}
	h.docs = strings.Count(files, "\n") + 1
	log, err := git(h.dir, "rev-list", "--first-parent", "--max-count=2000", h.head)
	if err != nil {
		return nil, err
	}
	line := strings.Fields(log)
	if len(line) > 200 {
		h.far = line[200]
	}
	for i := 0; i+1 < len(line) && len(h.picks) < b.hookRuns+1; i++ {
		out, err := git(h.dir, "diff-tree", "-r", "--name-only", "--no-commit-id", line[i+1], line[i])
		if err != nil {
			return nil, err
		}
		changed := strings.Fields(out)
		if len(changed) == 1 && strings.HasSuffix(changed[0], ".md") {
			h.picks = append(h.picks, [2]string{line[i+1], line[i]})
		}
	}
	if len(h.picks) == 0 {
		return nil, fmt.Errorf("%s: no commit among the newest 2,000 changes exactly one Markdown file", src)
	}
	objects, _ := git(h.dir, "count-objects", "-v")
	logf("[%s] %d Markdown files, %d commits changing one of them; %s", name, h.docs, len(h.picks),
		strings.Join(strings.Fields(objects), " "))
	if _, err := os.Stat(filepath.Join(h.dir, ".canon", "config.yaml")); err != nil {
		if p, err := run(h.dir, canonEnv(), b.canon, "init"); err != nil {
			return nil, fmt.Errorf("canon init: %w\n%s", err, p.stderr)
		}
	}
	return h, nil
}

// benchHistory measures the hooks on h's own commits.
func (b *bench) benchHistory(h *history) error {
	c := &corpus{n: h.docs, dir: h.dir, label: h.name}
	diff := b.row(c, "history", "floor: `git diff-tree -r PARENT COMMIT`, one document changed", "ms", nil, nil)
	commit := b.row(c, "history", "`canon hook post-commit`, one document changed", "ms", tHistCommit, diff)
	back := b.row(c, "history", "`canon hook post-checkout COMMIT PARENT 1`, one commit back", "ms", tHistCheckout, diff)
	open := b.row(c, "history", "go-git: open the object storage, read both commits (in process)", "ms", nil, nil)
	openProc := b.row(c, "history", "the same as a process of its own (start-up included)", "ms", nil, nil)
	version := b.row(c, "history", "`canon --version` (process start-up, for scale)", "ms", nil, nil)

	series := time.Now()
	for i, pc := range h.picks {
		run_ := i - 1 // the first pick is the warm-up
		if b.spent(series, c, "history post-commit", run_, len(h.picks)-1) {
			break
		}
		parent, next := pc[0], pc[1]
		// Untimed: the index at the parent, where git is.
		if _, err := git(h.dir, "checkout", "-q", "--detach", parent); err != nil {
			return err
		}
		if _, err := b.canonRun(c, "hook"); err != nil {
			return err
		}
		if err := expectIndexed(h.dir, parent, "before the commit"); err != nil {
			return err
		}
		// The commit lands: HEAD and the working tree move to it.
		if _, err := git(h.dir, "checkout", "-q", "--detach", next); err != nil {
			return err
		}
		p, err := b.hook(c, next, "post-commit")
		if err != nil {
			return err
		}
		d, err := run(h.dir, gitEnv(), "git", "diff-tree", "-r", parent, next)
		if err != nil {
			return err
		}
		o, err := gogitOpen(h.dir, next, parent)
		if err != nil {
			return err
		}
		op, err := run(h.dir, gitEnv(), b.self, "-gogit-open", h.dir, next, parent)
		if err != nil {
			return err
		}
		v, err := run(h.dir, canonEnv(), b.canon, "--version")
		if err != nil {
			return err
		}
		// One commit back, as `git checkout PARENT` would.
		q, err := oneBack(h, pc, func() (proc, error) { return b.hook(c, parent, "post-checkout", next, parent, "1") })
		if err != nil {
			return err
		}
		if run_ < 0 {
			continue
		}
		commit.add(ms(p.wall))
		back.add(ms(q.wall))
		diff.add(ms(d.wall))
		open.add(ms(o))
		openProc.add(ms(op.wall))
		version.add(ms(v.wall))
	}
	logf("[%s] post-commit: canon %.1f ms, diff-tree %.1f ms, go-git open %.1f ms; one commit back %.1f ms (medians)", h.name,
		median(commit.Samples), median(diff.Samples), median(open.Samples), median(back.Samples))

	if h.far != "" {
		if err := b.historyJump(c, h); err != nil {
			return err
		}
	}
	if err := b.historyHandoff(c, h); err != nil {
		return err
	}
	if _, err := git(h.dir, "checkout", "-q", "--detach", h.head); err != nil {
		return err
	}
	if _, err := b.canonRun(c, "hook"); err != nil {
		return err
	}
	return b.verify(c, "history")
}

// historyJump switches between HEAD and the commit 200 first-parent steps
// back, timing the hook after each switch.
func (b *bench) historyJump(c *corpus, h *history) error {
	n, err := git(h.dir, "diff-tree", "-r", "--name-only", "--no-commit-id", h.far, h.head)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("200 commits apart, %s files differ", commas(strings.Count(n, "\n")+1))
	diff := b.row(c, "history", "floor: `git diff-tree -r OLD NEW`, "+what, "ms", nil, nil)
	// No target: the hook re-reads and re-indexes every changed document,
	// work git does not do (the generated corpus's 1,000-document switch
	// has the target for that).
	hook := b.row(c, "history", "`canon hook post-checkout OLD NEW 1`, "+what, "ms", nil, diff)
	co := b.row(c, "history", "`git checkout` itself (not canon; for scale), "+what, "ms", nil, nil)
	from, to := h.head, h.far
	if _, err := git(h.dir, "checkout", "-q", "--detach", from); err != nil {
		return err
	}
	if _, err := b.canonRun(c, "hook"); err != nil {
		return err
	}
	series := time.Now()
	for i := -1; i < b.hookRuns; i++ {
		if b.spent(series, c, "history jump", i, b.hookRuns) {
			break
		}
		g, err := run(h.dir, gitEnv(), "git", "checkout", "-q", "--detach", to)
		if err != nil {
			return err
		}
		p, err := b.hook(c, to, "post-checkout", from, to, "1")
		if err != nil {
			return err
		}
		d, err := run(h.dir, gitEnv(), "git", "diff-tree", "-r", from, to)
		if err != nil {
			return err
		}
		if i >= 0 {
			hook.add(ms(p.wall))
			diff.add(ms(d.wall))
			co.add(ms(g.wall))
		}
		from, to = to, from
	}
	logf("[%s] jump: canon %.1f ms, diff-tree %.1f ms, git checkout %.1f ms (medians)", h.name,
		median(hook.Samples), median(diff.Samples), median(co.Samples))
	return nil
}

// historyHandoff times the same commits with canon watch running. The shim
// git runs (the one canon hooks install writes) finds the live watcher and
// leaves the work to it (ADR-0024): its time is what git waits for. The
// second figure is how long after git the watcher has the commit indexed,
// most of it the quiet time the watcher keeps after a move of HEAD (20 ms).
func (b *bench) historyHandoff(c *corpus, h *history) error {
	diff := b.row(c, "history", "floor: `git diff-tree -r PARENT COMMIT`, beside canon watch", "ms", nil, nil)
	commit := b.row(c, "history", "the post-commit shim with canon watch running (it hands off), one document changed", "ms", tHistCommit, diff)
	back := b.row(c, "history", "the post-checkout shim with canon watch running (it hands off), one commit back", "ms", tHistCheckout, diff)
	fresh := b.row(c, "history", "from git's move to the commit indexed by canon watch (its 20 ms quiet time after a move included)", "ms", nil, nil)

	if _, err := b.canonRun(c, "hooks", "install", "--manager", "git"); err != nil {
		return err
	}
	defer func() { _, _ = b.canonRun(c, "hooks", "uninstall") }() // best effort: the clone is thrown away
	hooksDir, err := git(h.dir, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return err
	}
	bin, err := filepath.Abs(filepath.Dir(b.canon))
	if err != nil {
		return err
	}
	shimEnv := append(canonEnv(), "PATH="+bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	shim := func(name string, args ...string) (proc, error) {
		p, err := run(h.dir, shimEnv, "sh", append([]string{filepath.Join(hooksDir, name)}, args...)...)
		if err == nil && strings.TrimSpace(p.stderr) != "" {
			err = fmt.Errorf("the %s shim reported: %s", name, strings.TrimSpace(p.stderr))
		}
		return p, err
	}

	w := exec.Command(b.canon, "watch", "--quiet")
	w.Dir, w.Env = h.dir, canonEnv()
	if err := w.Start(); err != nil {
		return err
	}
	defer func() {
		_ = w.Process.Signal(os.Interrupt) // stopping it: gone already is as good
		_ = w.Wait()
	}()
	status := filepath.Join(h.dir, ".git", "canon", "watch.json")
	if _, err := waitFor(10*time.Second, func() bool { _, err := os.Stat(status); return err == nil }); err != nil {
		return fmt.Errorf("canon watch did not start: %w", err)
	}
	indexed := func(commit string) (time.Duration, error) {
		return waitFor(10*time.Second, func() bool { got, _ := indexedHead(h.dir); return got == commit })
	}

	series := time.Now()
	for i, pc := range h.picks {
		run_ := i - 1 // the first pick is the warm-up
		if b.spent(series, c, "history hand-off", run_, len(h.picks)-1) {
			break
		}
		parent, next := pc[0], pc[1]
		if _, err := git(h.dir, "checkout", "-q", "--detach", parent); err != nil {
			return err
		}
		if _, err := indexed(parent); err != nil {
			return fmt.Errorf("canon watch did not index %.12s: %w", parent, err)
		}
		if _, err := git(h.dir, "checkout", "-q", "--detach", next); err != nil {
			return err
		}
		moved := time.Now()
		p, err := shim("post-commit")
		if err != nil {
			return err
		}
		d, err := run(h.dir, gitEnv(), "git", "diff-tree", "-r", parent, next)
		if err != nil {
			return err
		}
		if _, err := indexed(next); err != nil {
			return fmt.Errorf("canon watch did not index %.12s: %w", next, err)
		}
		took := time.Since(moved)
		q, err := oneBack(h, pc, func() (proc, error) { return shim("post-checkout", next, parent, "1") })
		if err != nil {
			return err
		}
		if run_ < 0 {
			continue
		}
		commit.add(ms(p.wall))
		back.add(ms(q.wall))
		diff.add(ms(d.wall))
		fresh.add(ms(took))
	}
	logf("[%s] hand-off to canon watch: post-commit shim %.1f ms, post-checkout shim %.1f ms, diff-tree %.1f ms; indexed %.0f ms after git (medians)",
		h.name, median(commit.Samples), median(back.Samples), median(diff.Samples), median(fresh.Samples))
	return nil
}

// oneBack moves h from the commit pc[1] back to its parent pc[0], as `git
// checkout PARENT` would, and runs the hook git would run after it.
func oneBack(h *history, pc [2]string, hook func() (proc, error)) (proc, error) {
	if _, err := git(h.dir, "checkout", "-q", "--detach", pc[0]); err != nil {
		return proc{}, err
	}
	return hook()
}

// waitFor polls cond every 2 ms until it holds, and says how long that took.
func waitFor(limit time.Duration, cond func() bool) (time.Duration, error) {
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			return 0, fmt.Errorf("not within %s", limit)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(start), nil
}
