package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// repo is one copy of a corpus with some of its remote refs.
type repo struct {
	Refs     int    `json:"refs"` // remote refs kept (beside origin/HEAD's branch)
	Dir      string `json:"dir"`
	Followed int    `json:"followed"` // refs the overlays follow
	LeftOut  int    `json:"left_out"` // over branches.max
	// Pairs are "TIP BASE" lines for git diff-tree -r --stdin: every
	// followed ref's commit and merge base, with HEAD on the branch named.
	Pairs     map[string]string `json:"-"`
	PairCount map[string]int    `json:"pairs"`
	Nothing   sample            `json:"overlays_from_nothing"`
	Verify    string            `json:"verify"`
	edits     int
	c         *corpus
	bin       string
	// samples by row: the timed turns', and the warm-up's (peak RSS)
	s, rss map[string][]sample
}

func (r *repo) add(row string, s sample) {
	if r.s == nil {
		r.s = map[string][]sample{}
	}
	r.s[row] = append(r.s[row], s)
}

// makeRepo copies c's base into dir and keeps n of its remote refs; the
// index built in the base comes along (it reflects HEAD, which the copy
// shares). The overlays are built from nothing (timed once), then read
// with HEAD on each branch for the pairs of the diff-tree floor.
func makeRepo(c *corpus, dir, bin string, n int) (*repo, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if _, _, err := proc("", "", nil, "cp", "-a", c.base, dir); err != nil {
		return nil, err
	}
	keep := c.take(n)
	var del strings.Builder
	for _, ref := range c.Remote {
		if !keep[ref] {
			fmt.Fprintf(&del, "delete %s\n", ref)
		}
	}
	if del.Len() > 0 {
		if _, err := gitIn(dir, del.String(), "update-ref", "--stdin"); err != nil {
			return nil, err
		}
	}
	if _, err := git(dir, "pack-refs", "--all", "--prune"); err != nil {
		return nil, err
	}
	r := &repo{Refs: n, Dir: dir, c: c, bin: bin, Pairs: map[string]string{}, PairCount: map[string]int{}}
	out, s, err := proc(dir, "", nil, bin, "branches", "--json")
	if err != nil {
		return nil, err
	}
	r.Nothing = s
	if err := r.readPairs(out, c.Main); err != nil {
		return nil, err
	}
	for _, b := range c.branches() {
		if err := r.checkout(b); err != nil {
			return nil, err
		}
		if out, _, err = proc(dir, "", nil, bin, "branches", "--json"); err != nil {
			return nil, err
		}
		if err := r.readPairs(out, b); err != nil {
			return nil, err
		}
		if err := r.checkout(c.Main); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// checkout moves HEAD to branch as git checkout does (no hook: git runs
// none here) and runs canon's post-checkout hook, returning what the hook
// cost.
func (r *repo) checkout(branch string) error {
	_, err := r.checkoutHook(branch)
	return err
}

func (r *repo) checkoutHook(branch string) (sample, error) {
	from, err := git(r.Dir, "rev-parse", "HEAD")
	if err != nil {
		return sample{}, err
	}
	if _, err := git(r.Dir, "checkout", "-q", branch); err != nil {
		return sample{}, err
	}
	to, err := git(r.Dir, "rev-parse", "HEAD")
	if err != nil {
		return sample{}, err
	}
	_, s, err := measured(r.Dir, "", nil, r.bin, "hook", "post-checkout", from, to, "1")
	return s, err
}

type branchesJSON struct {
	Refs []struct {
		Name      string `json:"name"`
		Commit    string `json:"commit"`
		MergeBase string `json:"merge_base"`
	} `json:"refs"`
	Overlay struct {
		Refs    int `json:"refs"`
		Updated int `json:"updated"`
		LeftOut int `json:"left_out"`
		Pending int `json:"pending"`
	} `json:"overlay"`
}

func (r *repo) readPairs(out, side string) error {
	var b branchesJSON
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		return fmt.Errorf("canon branches --json: %w", err)
	}
	if b.Overlay.Pending > 0 {
		return fmt.Errorf("canon branches --json: %d refs pending (the read budget ran out)", b.Overlay.Pending)
	}
	r.Followed, r.LeftOut = b.Overlay.Refs, b.Overlay.LeftOut
	var lines strings.Builder
	for _, ref := range b.Refs {
		if ref.MergeBase != "" && ref.MergeBase != ref.Commit {
			fmt.Fprintf(&lines, "%s %s\n", ref.Commit, ref.MergeBase)
			r.PairCount[side]++
		}
	}
	r.Pairs[side] = lines.String()
	return nil
}

// stageOne changes the next document of the corpus's list (a line
// appended) and stages it; commit commits what is staged, dated after
// everything in the repository (the merge-base walk goes by commit time).
func (r *repo) stageOne() error {
	p := r.c.Edit[(r.edits*7919)%len(r.c.Edit)]
	r.edits++
	f, err := os.OpenFile(filepath.Join(r.Dir, p), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "\n- measured commit %d.\n", r.edits)
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err != nil {
		return err
	}
	_, err = git(r.Dir, "add", "--", p)
	return err
}

func (r *repo) commit() error {
	d := fmt.Sprintf("%d +0000", r.c.Date+int64(r.edits)*60)
	_, _, err := proc(r.Dir, "", gitEnv("GIT_AUTHOR_DATE="+d, "GIT_COMMITTER_DATE="+d), "git", "commit", "-q", "-m", fmt.Sprintf("measured commit %d", r.edits))
	return err
}

// timed runs canon (or another program) in the repository and keeps its
// sample under row.
func (r *repo) timed(row, stdin, name string, args ...string) (string, error) {
	out, s, err := measured(r.Dir, stdin, nil, name, args...)
	if err != nil {
		return out, err
	}
	r.add(row, s)
	return out, nil
}

func (r *repo) canon(row string, args ...string) error {
	_, err := r.timed(row, "", r.bin, args...)
	return err
}

// pair runs a and b, a first in even turns: canon and its floor take
// turns.
func pair(turn int, a, b func() error) error {
	if turn%2 == 1 {
		a, b = b, a
	}
	if err := a(); err != nil {
		return err
	}
	return b()
}

// stepCommit: one document staged, the pre-commit hook against git diff
// --cached; committed, the post-commit hook against git diff-tree -r
// HEAD~1 HEAD and a process start (canon --version).
func (r *repo) stepCommit(turn int) error {
	if err := r.stageOne(); err != nil {
		return err
	}
	if err := pair(turn,
		func() error { return r.canon("hook pre-commit", "hook", "pre-commit") },
		func() error {
			_, err := r.timed("git diff --cached", "", "git", "diff", "--cached", "--raw", "-z")
			return err
		},
	); err != nil {
		return err
	}
	if err := r.commit(); err != nil {
		return err
	}
	return pair(turn,
		func() error { return r.canon("hook post-commit", "hook", "post-commit") },
		func() error {
			if _, err := r.timed("git diff-tree", "", "git", "diff-tree", "-r", "HEAD~1", "HEAD"); err != nil {
				return err
			}
			return r.canon("canon --version", "--version")
		})
}

// stepReady: a commit and its post-commit hook, then the first canon
// ready; the same again for canon ready --here.
func (r *repo) stepReady(turn int) error {
	one := func(row string, args ...string) func() error {
		return func() error {
			if err := r.stageOne(); err != nil {
				return err
			}
			if err := r.commit(); err != nil {
				return err
			}
			if _, _, err := proc(r.Dir, "", nil, r.bin, "hook", "post-commit"); err != nil {
				return err
			}
			return r.canon(row, args...)
		}
	}
	return pair(turn, one("ready after a commit", "ready"), one("ready --here after a commit", "ready", "--here"))
}

// stepCheckout: HEAD to the feature branch and back, each with its
// post-checkout hook, then the first canon ready (and git diff-tree -r
// --stdin over every followed ref's merge base and tip, as they stand
// with HEAD on that branch); the same again for canon ready --here; then
// the same with the near branch (rows named " (near)").
func (r *repo) stepCheckout(turn int) error {
	for _, b := range r.c.branches() {
		suffix := ""
		if b == "near" {
			suffix = " (near)"
		}
		one := func(here bool) func() error {
			return func() error {
				for _, to := range []string{b, r.c.Main} {
					s, err := r.checkoutHook(to)
					if err != nil {
						return err
					}
					r.add("hook post-checkout"+suffix, s)
					if here {
						if err := r.canon("ready --here after a checkout"+suffix, "ready", "--here"); err != nil {
							return err
						}
						continue
					}
					if err := r.canon("ready after a checkout"+suffix, "ready"); err != nil {
						return err
					}
					if _, err := r.timed("git diff-tree --stdin"+suffix, r.Pairs[to], "git", "diff-tree", "-r", "--stdin"); err != nil {
						return err
					}
				}
				return nil
			}
		}
		if err := pair(turn, one(false), one(true)); err != nil {
			return err
		}
	}
	return nil
}

// stepCommands: the other commands that read the overlays, nothing
// having moved, each with its floor.
func (r *repo) stepCommands(turn int, show string) error {
	feature, err := git(r.Dir, "rev-parse", featureRef)
	if err != nil {
		return err
	}
	push := fmt.Sprintf("%s %s %s %s\n", featureRef, feature, featureRef, strings.Repeat("0", 40))
	steps := []func() error{
		func() error { return r.canon("branches", "branches") },
		func() error {
			_, err := r.timed("git branch -a -v", "", "git", "branch", "-a", "-v", "--no-abbrev")
			return err
		},
		func() error { return r.canon("show --branches", "show", show, "--branches") },
		func() error { return r.canon("show", "show", show) },
		func() error {
			_, err := r.timed("hook pre-push", push, r.bin, "hook", "pre-push", "origin", r.c.URL)
			return err
		},
		func() error { return r.mcp("mcp claims", "claims", `{}`) },
		func() error { return r.mcp("mcp session", "", "") },
	}
	if r.c.IDKind != "" {
		steps = append(steps, func() error { return r.canon("id next", "id", "next", r.c.IDKind) })
	}
	if turn%2 == 1 {
		for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
			steps[i], steps[j] = steps[j], steps[i]
		}
	}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// mcp times one session of canon mcp over stdio: initialize, one tool
// call (none when tool is ""), the end of the input (canon answers what
// it owes, then exits).
func (r *repo) mcp(row, tool, args string) error {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"benchteam","version":"0"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	id := 1
	if tool != "" {
		in += `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}` + "\n"
		id = 2
	}
	out, err := r.timed(row, in, r.bin, "mcp")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(out, "\n") {
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.ID == id {
			if m.Error != nil || strings.Contains(string(m.Result), `"isError":true`) {
				return fmt.Errorf("canon mcp %s: %s", tool, line)
			}
			return nil
		}
	}
	return fmt.Errorf("canon mcp %s: no answer to the call: %s", tool, out)
}

// verify runs canon verify: the index and overlays must equal a rebuild.
func (r *repo) verify() error {
	out, _, err := proc(r.Dir, "", nil, r.bin, "verify")
	r.Verify = strings.TrimSpace(out)
	if err != nil {
		return fmt.Errorf("canon verify with %d refs: %w\n%s", r.Refs, err, out)
	}
	return nil
}

// showTarget is the document canon show --branches asks for: the one
// most refs change (among those HEAD has), from the refs' own diffs.
func showTarget(r *repo, fallback string) (string, error) {
	if fallback != "" {
		return fallback, nil
	}
	out, err := gitIn(r.Dir, r.Pairs[r.c.Main], "diff-tree", "-r", "--stdin", "--name-only", "--no-commit-id")
	if err != nil {
		return "", err
	}
	count := map[string]int{}
	for _, p := range strings.Fields(out) {
		if strings.HasSuffix(p, ".md") {
			count[p]++
		}
	}
	var best []string
	for p := range count {
		if _, err := os.Stat(filepath.Join(r.Dir, p)); err == nil {
			best = append(best, p)
		}
	}
	if len(best) == 0 {
		return r.c.Edit[0], nil
	}
	sort.Slice(best, func(i, j int) bool {
		if count[best[i]] != count[best[j]] {
			return count[best[i]] > count[best[j]]
		}
		return best[i] < best[j]
	})
	return best[0], nil
}

// since formats how long something took, for the log.
func since(t time.Time) string { return time.Since(t).Round(100 * time.Millisecond).String() }
