package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

type report struct {
	Corpus    *corpus
	Repos     []*repo
	Loads     []float64
	StartLoad float64
	Version   string
	Command   string
	Date      string
	Runs      int
}

// rows of the figures table: the measured row and what it is, in order.
var rows = []struct{ key, what string }{
	{"hook post-commit", "`canon hook post-commit`, one document changed"},
	{"git diff-tree", "floor: `git diff-tree -r HEAD~1 HEAD`"},
	{"canon --version", "floor: a process start, `canon --version`"},
	{"hook pre-commit", "`canon hook pre-commit`, one document staged"},
	{"git diff --cached", "floor: `git diff --cached --raw -z`"},
	{"hook post-checkout", "`canon hook post-checkout`, to the feature branch and back (BACK commits apart)"},
	{"hook post-checkout (near)", "`canon hook post-checkout`, to the near branch and back (NEAR commits apart)"},
	{"hook pre-push", "`canon hook pre-push origin URL`, the feature branch pushed as new"},
	{"ready after a commit", "first `canon ready` after a commit (its hook run)"},
	{"ready --here after a commit", "floor: `canon ready --here` after a commit"},
	{"ready after a checkout", "first `canon ready` after a checkout (its hook run)"},
	{"ready --here after a checkout", "floor: `canon ready --here` after a checkout"},
	{"git diff-tree --stdin", "floor: `git diff-tree -r --stdin` over every followed ref's (merge base, tip)"},
	{"ready after a checkout (near)", "first `canon ready` after a checkout of the near branch (its hook run)"},
	{"ready --here after a checkout (near)", "floor: `canon ready --here` after a checkout of the near branch"},
	{"git diff-tree --stdin (near)", "floor: `git diff-tree -r --stdin` over the pairs, HEAD on the near branch or back"},
	{"branches", "`canon branches`, nothing moved"},
	{"git branch -a -v", "floor: `git branch -a -v --no-abbrev` (git's listing of the refs and their commits)"},
	{"id next", "`canon id next KIND`, nothing moved"},
	{"show --branches", "`canon show DOC --branches`"},
	{"show", "floor: `canon show DOC`"},
	{"mcp claims", "`canon mcp`, one session calling `claims`"},
	{"mcp session", "`canon mcp`, one session calling nothing (for scale)"},
}

func (rep *report) stat(r *repo, key string) stats { return summarise(r.s[key]) }

func refsName(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("%d,%03d", n/1000, n%1000)
	}
	return fmt.Sprint(n)
}

func (rep *report) print(w io.Writer) {
	c := rep.Corpus
	fmt.Fprintf(w, "\n## %s: %d documents, %d commits on %s, %s\n\n", c.Label, c.Docs, c.Commits, c.Main, c.Objects)
	fmt.Fprintf(w, "%s, %s; %s; %d timed turns after a warm-up, medians; load average %.2f at the start, %s during the turns (min / median / max)\n\n",
		rep.Date, rep.Version, rep.Command, rep.Runs, rep.StartLoad, loadRange(rep.Loads))
	for _, r := range rep.Repos {
		fmt.Fprintf(w, "- %s remote refs: the overlays follow %d refs (%d left out, over branches.max); built from nothing by the first `canon branches --json` in %s; (merge base, tip) pairs: %d with HEAD on %s, %d on feature, %d on near; verify: %s\n",
			refsName(r.Refs), r.Followed, r.LeftOut, r.Nothing.Wall.Round(time.Millisecond), r.PairCount[c.Main], c.Main, r.PairCount["feature"], r.PairCount["near"], firstLine(r.Verify))
	}
	fmt.Fprintf(w, "- DOC is %s; KIND is %q; the feature branch forks %d first-parent commits back, the near branch %d; peak RSS is the most of the warm-up turn's runs, each under /usr/bin/time -f %%M\n\n", c.Show, c.IDKind, c.Back, c.Near)

	fmt.Fprintf(w, "| what |")
	for _, r := range rep.Repos {
		fmt.Fprintf(w, " %s refs: wall (CPU) ms |", refsName(r.Refs))
	}
	fmt.Fprintf(w, " peak RSS, MB |\n|---|")
	for range rep.Repos {
		fmt.Fprintf(w, "---:|")
	}
	fmt.Fprintf(w, "---:|\n")
	for _, row := range rows {
		if len(rep.Repos[0].s[row.key]) == 0 {
			continue
		}
		fmt.Fprintf(w, "| %s |", strings.NewReplacer("BACK", fmt.Sprint(c.Back), "NEAR", fmt.Sprint(c.Near)).Replace(row.what))
		var rss []string
		for _, r := range rep.Repos {
			s := rep.stat(r, row.key)
			fmt.Fprintf(w, " %s (%s) |", ms(s.Wall), ms(s.CPU))
			rss = append(rss, fmt.Sprintf("%.0f", float64(summarise(r.rss[row.key]).RSS)/1024))
		}
		fmt.Fprintf(w, " %s |\n", strings.Join(rss, " / "))
	}

	fmt.Fprintf(w, "\n| goal (issue 46) | refs | canon | floor | ratio (CPU ratio) | target | |\n|---|---:|---:|---:|---:|---|---|\n")
	for _, g := range rep.goals() {
		fmt.Fprintf(w, "| %s | %s | %s ms | %s ms | %.2fx (%.2fx) | %s | %s |\n", g.what, refsName(g.refs), ms(g.canon.Wall), ms(g.floor.Wall), g.ratio(), g.cpuRatio(), g.target, g.verdict())
	}
	fmt.Fprintln(w)
}

type goal struct {
	what         string
	refs         int
	canon, floor stats
	target       string
	limit        float64 // 0: reported, no target
}

func (g goal) ratio() float64 {
	if g.floor.Wall == 0 {
		return 0
	}
	return float64(g.canon.Wall) / float64(g.floor.Wall)
}

func (g goal) cpuRatio() float64 {
	if g.floor.CPU == 0 {
		return 0
	}
	return float64(g.canon.CPU) / float64(g.floor.CPU)
}

func (g goal) verdict() string {
	switch {
	case g.limit == 0:
		return ""
	case g.ratio() <= g.limit:
		return "pass"
	default:
		return "fail"
	}
}

func plus(a, b stats) stats { return stats{Wall: a.Wall + b.Wall, CPU: a.CPU + b.CPU} }

func (rep *report) goals() []goal {
	var out []goal
	zero := rep.Repos[0]
	for _, r := range rep.Repos {
		st := func(k string) stats { return rep.stat(r, k) }
		if len(r.s["hook post-commit"]) > 0 {
			out = append(out, goal{"post-commit against `git diff-tree` plus a process start", r.Refs, st("hook post-commit"), plus(st("git diff-tree"), st("canon --version")), "≤ 1.5x", 1.5})
		}
		if len(r.s["ready after a commit"]) > 0 && r.Refs > 0 {
			out = append(out, goal{"first `ready` after a commit against `ready --here`", r.Refs, st("ready after a commit"), st("ready --here after a commit"), "≤ 1.5x", 1.5})
		}
		for _, sfx := range []string{"", " (near)"} {
			if len(r.s["ready after a checkout"+sfx]) > 0 && r.Refs > 0 {
				out = append(out, goal{"first `ready` after a checkout" + strings.ReplaceAll(sfx, "(near)", "of the near branch") + " against `ready --here` plus `git diff-tree -r --stdin` of the pairs", r.Refs,
					st("ready after a checkout" + sfx), plus(st("ready --here after a checkout"+sfx), st("git diff-tree --stdin"+sfx)), "≤ 1.5x", 1.5})
			}
		}
	}
	for _, r := range rep.Repos[1:] {
		for _, h := range []string{"hook post-commit", "hook pre-commit", "hook post-checkout", "hook post-checkout (near)", "hook pre-push"} {
			if len(r.s[h]) > 0 {
				out = append(out, goal{"`" + strings.TrimPrefix(h, "hook ") + "` against the same hook with 0 refs", r.Refs, rep.stat(r, h), rep.stat(zero, h), "≤ 1.5x", 1.5})
			}
		}
	}
	last := rep.Repos[len(rep.Repos)-1]
	for _, f := range [][3]string{
		{"branches", "git branch -a -v", "`branches` against `git branch -a -v`"},
		{"id next", "", "`id next` against the same with 0 refs"},
		{"show --branches", "show", "`show --branches` against `show`"},
		{"mcp claims", "", "MCP `claims` against the same with 0 refs"},
	} {
		if len(last.s[f[0]]) == 0 {
			continue
		}
		floor := rep.stat(last, f[1])
		if f[1] == "" {
			floor = rep.stat(zero, f[0])
		}
		out = append(out, goal{f[2], last.Refs, rep.stat(last, f[0]), floor, "reported", 0})
	}
	return out
}

func loadRange(l []float64) string {
	if len(l) == 0 {
		return "?"
	}
	lo, hi := l[0], l[0]
	for _, x := range l {
		lo, hi = min(lo, x), max(hi, x)
	}
	return fmt.Sprintf("%.2f / %.2f / %.2f", lo, medianF(l), hi)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// raw is what -json writes: the corpus, every repository's samples and
// medians, the goals and the load.
func (rep *report) raw() any {
	type repoOut struct {
		*repo
		Samples map[string][]sample `json:"samples"`
		RSS     map[string][]sample `json:"warm_up"` // the warm-up turn, run under /usr/bin/time -f %M
		Medians map[string]stats    `json:"medians"`
	}
	type goalOut struct {
		What     string  `json:"what"`
		Refs     int     `json:"refs"`
		CanonMs  float64 `json:"canon_ms"`
		FloorMs  float64 `json:"floor_ms"`
		Ratio    float64 `json:"ratio"`
		CPURatio float64 `json:"cpu_ratio"`
		Verdict  string  `json:"verdict,omitempty"`
	}
	var repos []repoOut
	for _, r := range rep.Repos {
		m := map[string]stats{}
		for k, v := range r.s {
			m[k] = summarise(v)
		}
		repos = append(repos, repoOut{r, r.s, r.rss, m})
	}
	var goals []goalOut
	for _, g := range rep.goals() {
		goals = append(goals, goalOut{g.what, g.refs, float64(g.canon.Wall) / 1e6, float64(g.floor.Wall) / 1e6, g.ratio(), g.cpuRatio(), g.verdict()})
	}
	return map[string]any{"corpus": rep.Corpus, "repos": repos, "goals": goals, "loads": rep.Loads, "start_load": rep.StartLoad,
		"version": rep.Version, "command": rep.Command, "date": rep.Date, "runs": rep.Runs}
}
