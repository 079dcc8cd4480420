package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// corpus is one repository's history with its remote refs, copied once
// for each number of refs measured.
type corpus struct {
	Label   string   `json:"label"`
	Kind    string   `json:"kind"` // generated or real
	Docs    int      `json:"docs"`
	Commits int      `json:"commits"` // first-parent commits on the branch
	Objects string   `json:"objects"` // git count-objects -v, once packed
	Main    string   `json:"main"`    // the branch HEAD is on
	URL     string   `json:"url"`     // origin's url, for pre-push
	Remote  []string `json:"remote"`  // every remote ref made, in the order a number of them is taken
	Spread  bool     `json:"spread"`  // N refs are taken uniformly spread over Remote (else the first N)
	Edit    []string `json:"edit"`    // documents the measured commits change, in turn
	IDKind  string   `json:"id_kind"` // the kind canon id next is asked for ("" when none has numbered ids)
	Date    int64    `json:"date"`    // unix seconds: the measured commits are dated from here
	Back    int      `json:"back"`    // the feature branch forks this many first-parent commits back
	Near    int      `json:"near"`    // the near branch forks this many back (0: none)
	Show    string   `json:"show"`    // the document canon show --branches asks for
	base    string
}

const featureRef = "refs/heads/feature"

// branches are the local branches the checkout step goes to and back:
// feature (far: -back commits), near (-near commits).
func (c *corpus) branches() []string {
	if c.Near > 0 {
		return []string{"feature", "near"}
	}
	return []string{"feature"}
}

// setupGenerated gives the generated corpus src (gencorpus -git: one
// commit) a history of history commits on main, each changing one to four
// documents (a state or a line appended; every eighth adds a task), then
// maxRefs remote refs refs/remotes/origin/bNNNN forked from uniformly
// spread points of that history, each one to three commits changing one
// to five documents (state, owner; every fifth adds a task), and a local
// branch feature forked back commits back, all by git fast-import with
// fixed dates and seed, and packs it as a clone's (git repack -adf).
// History and refs change disjoint halves of the items, so that each
// ref's change is made from the corpus's own text.
func setupGenerated(src, base string, history, maxRefs, back, near int, seed int64) (*corpus, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if _, err := git("", "clone", "-q", abs, base); err != nil {
		return nil, err
	}
	if err := configure(base); err != nil {
		return nil, err
	}
	c := &corpus{Kind: "generated", Main: "main", URL: abs, Spread: true, Back: back, Near: near, base: base}
	if c.Main, err = git(base, "symbolic-ref", "--short", "HEAD"); err != nil {
		return nil, err
	}
	root, err := git(base, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	rootDate, err := git(base, "log", "-1", "--format=%ct")
	if err != nil {
		return nil, err
	}
	g := &generator{base: base, rng: rand.New(rand.NewSource(seed))}
	g.t0, _ = strconv.ParseInt(rootDate, 10, 64)
	out, err := git(base, "ls-files", "--", "*/items/*.md")
	if err != nil {
		return nil, err
	}
	items := strings.Fields(out)
	sort.Strings(items)
	if len(items) < 100 {
		return nil, fmt.Errorf("%s: %d items; is it a gencorpus repository?", src, len(items))
	}
	for i, p := range items {
		if i%2 == 0 {
			g.poolA = append(g.poolA, p)
		} else {
			g.poolB = append(g.poolB, p)
		}
	}
	g.tasks, g.prefix, g.width, g.maxTask = taskPattern(items)
	if g.tasks == "" {
		return nil, fmt.Errorf("%s: no task documents named PREFIX-NUMBER_title.md", src)
	}
	c.IDKind = "task"
	nextTask := g.mainHistory(c.Main, root, history)
	refTask := nextTask + 1000
	show := g.poolB[0]
	c.Remote = g.remoteRefs(show, history, maxRefs, refTask)
	for i, b := range c.branches() {
		k := history - back
		if b == "near" {
			k = history - near
		}
		var ch [][2]string
		for _, p := range g.poolB[len(g.poolB)-3*(i+1) : len(g.poolB)-3*i] {
			ch = append(ch, [2]string{p, setField(g.read(p), "state", "InProgress")})
		}
		ch = append(ch, newTask(g.tasks, g.prefix, g.width, refTask+maxRefs+1+i, b))
		writeCommit(&g.st, "refs/heads/"+b, 0, "Feature Dev <feature@canon.invalid>", g.date(k)+900, b+": take three tasks, add one", ":"+strconv.Itoa(k), ch)
	}
	if _, err := gitIn(base, g.st.String(), "fast-import", "--quiet"); err != nil {
		return nil, err
	}
	for _, args := range [][]string{
		{"reset", "-q", "--hard", c.Main},
		{"update-ref", "refs/remotes/origin/" + c.Main, c.Main},
		{"symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/" + c.Main},
		{"repack", "-a", "-d", "-f", "-q", "--window=10", "--depth=50"},
		{"pack-refs", "--all", "--prune"},
		{"prune", "--expire=now"},
	} {
		if _, err := git(base, args...); err != nil {
			return nil, err
		}
	}
	c.Edit = g.poolA
	c.Date = g.date(history) + 86400
	return c, c.describe(show)
}

// generator writes the history and refs of a generated corpus as one git
// fast-import stream (st), from its items and one random source, so that
// a seed makes the same corpus each run.
type generator struct {
	base           string
	rng            *rand.Rand
	st             bytes.Buffer
	t0             int64    // the date of the corpus's one commit
	poolA, poolB   []string // the items history changes, and those the refs change
	tasks, prefix  string   // taskPattern's
	width, maxTask int
}

// generatedStates are the states generated commits set.
var generatedStates = []string{"Planned", "Ready", "InProgress", "Review", "Done"}

// read is the text of the corpus's item p.
func (g *generator) read(p string) string {
	data, err := os.ReadFile(filepath.Join(g.base, p))
	must(err)
	return string(data)
}

// date is the date of commit k of the history: an hour apart.
func (g *generator) date(k int) int64 { return g.t0 + int64(k)*3600 }

// mainHistory writes history commits on branch main after the commit
// root, each changing one to four items of poolA (a state or a line
// appended; every eighth adds a task), and returns the last task number
// used.
func (g *generator) mainHistory(main, root string, history int) int {
	rng, states := g.rng, generatedStates
	onMain := map[string]string{}
	nextTask := g.maxTask
	for k := 1; k <= history; k++ {
		var ch [][2]string
		for j, n := 0, 1+rng.Intn(4); j < n; j++ {
			p := g.poolA[rng.Intn(len(g.poolA))]
			text, ok := onMain[p]
			if !ok {
				text = g.read(p)
			}
			if rng.Intn(2) == 0 {
				text = setField(text, "state", states[rng.Intn(len(states))])
			} else {
				text += fmt.Sprintf("\n- worklog %d: one more line on main.\n", k)
			}
			onMain[p] = text
			ch = append(ch, [2]string{p, text})
		}
		if k%8 == 0 {
			nextTask++
			ch = append(ch, newTask(g.tasks, g.prefix, g.width, nextTask, "main"))
		}
		from := ":" + strconv.Itoa(k-1)
		if k == 1 {
			from = root
		}
		writeCommit(&g.st, "refs/heads/"+main, k, fmt.Sprintf("Dev %d <dev%d@canon.invalid>", k%7, k%7), g.date(k), "main: commit "+strconv.Itoa(k), from, ch)
	}
	return nextTask
}

// remoteRefs writes maxRefs remote refs refs/remotes/origin/bNNNN forked
// from uniformly spread commits of the history, each one to three commits
// changing one to five items of poolB (state, owner; every fifth adds a
// task numbered from refTask; every tenth changes show), and returns
// their names.
func (g *generator) remoteRefs(show string, history, maxRefs, refTask int) []string {
	rng, states := g.rng, generatedStates
	var names []string
	for i := 0; i < maxRefs; i++ {
		k := 1 + int((float64(i)+0.5)*float64(history)/float64(maxRefs))
		k = min(max(k, 1), history)
		name := fmt.Sprintf("refs/remotes/origin/b%04d", i)
		mine := map[string]string{}
		for j, n := 0, 1+rng.Intn(3); j < n; j++ {
			var ch [][2]string
			docs := 1 + rng.Intn(5)
			for d := 0; d < docs; d++ {
				p := g.poolB[1+rng.Intn(len(g.poolB)-1)]
				if j == 0 && d == 0 && i%10 == 0 {
					p = show // the document canon show --branches shows
				}
				text, ok := mine[p]
				if !ok {
					text = g.read(p)
				}
				if rng.Intn(3) == 0 {
					text = setField(text, "owner", fmt.Sprintf("agent-%02d", i%50))
				} else {
					text = setField(text, "state", states[1+rng.Intn(len(states)-1)])
				}
				mine[p] = text
				ch = append(ch, [2]string{p, text})
			}
			if j == 0 && i%5 == 0 {
				ch = append(ch, newTask(g.tasks, g.prefix, g.width, refTask+i, fmt.Sprintf("ref b%04d", i)))
			}
			from := ""
			if j == 0 {
				from = ":" + strconv.Itoa(k)
			}
			writeCommit(&g.st, name, 0, fmt.Sprintf("Agent %02d <agent%02d@canon.invalid>", i%50, i%50), g.date(k)+600+int64(j)*60, fmt.Sprintf("b%04d: step %d", i, j+1), from, ch)
		}
		names = append(names, name)
	}
	return names
}

// setupReal clones src (a clone or a bare mirror holding GitHub's
// refs/pull/N/head), fetches the maxRefs most recently updated pull
// requests' heads into refs/remotes/origin/pr/N, makes a local branch
// feature forked back first-parent commits back, with one commit, and
// packs it once (git gc).
func setupReal(src, base string, maxRefs, back, near int) (*corpus, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if _, err := git("", "clone", "-q", "--no-local", "--single-branch", abs, base); err != nil {
		return nil, err
	}
	if err := configure(base); err != nil {
		return nil, err
	}
	c := &corpus{Kind: "real", URL: abs, Back: back, Near: near, base: base}
	if c.Main, err = git(base, "symbolic-ref", "--short", "HEAD"); err != nil {
		return nil, err
	}
	if _, err := git(base, "rev-parse", "--verify", "-q", "refs/remotes/origin/HEAD"); err != nil {
		if _, err := git(base, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/"+c.Main); err != nil {
			return nil, err
		}
	}
	out, err := git(abs, "for-each-ref", "--sort=-committerdate", "--format=%(refname)", "refs/pull/")
	if err != nil {
		return nil, err
	}
	var specs []string
	for _, r := range strings.Fields(out) {
		n, ok := strings.CutSuffix(strings.TrimPrefix(r, "refs/pull/"), "/head")
		if !ok || len(specs) == maxRefs {
			continue
		}
		name := "refs/remotes/origin/pr/" + n
		specs = append(specs, "+"+r+":"+name)
		c.Remote = append(c.Remote, name)
	}
	if len(specs) < maxRefs {
		return nil, fmt.Errorf("%s has %d pull request heads (refs/pull/N/head), fewer than %d", src, len(specs), maxRefs)
	}
	if len(specs) > 0 {
		if _, err := git(base, append([]string{"fetch", "-q", "--no-tags", abs}, specs...)...); err != nil {
			return nil, err
		}
	}
	var st bytes.Buffer
	for i, b := range c.branches() {
		k := back
		if b == "near" {
			k = near
		}
		fork, err := git(base, "rev-parse", fmt.Sprintf("%s~%d", c.Main, k))
		if err != nil {
			return nil, err
		}
		forkDate, err := git(base, "log", "-1", "--format=%ct", fork)
		if err != nil {
			return nil, err
		}
		t, _ := strconv.ParseInt(forkDate, 10, 64)
		files, err := git(base, "ls-tree", "-r", "--name-only", fork, "--", "text/")
		if err != nil {
			return nil, err
		}
		var ch [][2]string
		for j, p := range strings.Fields(files) {
			if strings.HasSuffix(p, ".md") && j >= 2*i && len(ch) < 2 {
				text, err := git(base, "show", fork+":"+p)
				if err != nil {
					return nil, err
				}
				ch = append(ch, [2]string{p, text + "\n\nA line the " + b + " branch adds.\n"})
			}
		}
		ch = append(ch, [2]string{"text/0000-team-benchmark-" + b + ".md", "- Feature Name: team_benchmark_" + b + "\n- Start Date: 2026-11-28\n\n# Summary\n\nA proposal the " + b + " branch adds.\n"})
		writeCommit(&st, "refs/heads/"+b, 0, "Feature Dev <feature@canon.invalid>", t+86400, b+": one proposal, two edits", fork, ch)
	}
	if _, err := gitIn(base, st.String(), "fast-import", "--quiet"); err != nil {
		return nil, err
	}
	if _, err := git(base, "gc", "-q", "--prune=now"); err != nil {
		return nil, err
	}
	if c.Edit, err = editable(base); err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	newest, err := git(base, "for-each-ref", "--sort=-committerdate", "--count=1", "--format=%(committerdate:unix)")
	if err != nil {
		return nil, err
	}
	c.Date, _ = strconv.ParseInt(newest, 10, 64)
	c.Date += 86400
	return c, c.describe("")
}

// configure makes base a scratch clone: no hooks run by git (the
// benchmark runs canon's hook commands itself), no automatic gc.
func configure(dir string) error {
	for _, kv := range [][2]string{
		{"core.hooksPath", os.DevNull}, {"gc.auto", "0"}, {"maintenance.auto", "false"},
		{"advice.detachedHead", "false"}, {"user.name", "Bench"}, {"user.email", "bench@canon.invalid"},
	} {
		if _, err := git(dir, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// describe counts what the corpus holds.
func (c *corpus) describe(show string) error {
	out, err := git(c.base, "ls-files", "--", "*.md")
	if err != nil {
		return err
	}
	c.Docs = len(strings.Fields(out))
	n, err := git(c.base, "rev-list", "--first-parent", "--count", c.Main)
	if err != nil {
		return err
	}
	c.Commits, _ = strconv.Atoi(n)
	out, err = git(c.base, "count-objects", "-vH")
	if err != nil {
		return err
	}
	f := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			f[k] = v
		}
	}
	c.Objects = fmt.Sprintf("%s objects in %s pack(s) of %s", f["in-pack"], f["packs"], f["size-pack"])
	c.Show = show
	return nil
}

// take is which of c.Remote a repository with n remote refs keeps.
func (c *corpus) take(n int) map[string]bool {
	keep := map[string]bool{}
	if n >= len(c.Remote) {
		for _, r := range c.Remote {
			keep[r] = true
		}
		return keep
	}
	for j := 0; j < n; j++ {
		i := j
		if c.Spread {
			i = int((float64(j) + 0.5) * float64(len(c.Remote)) / float64(n))
		}
		keep[c.Remote[i]] = true
	}
	return keep
}

var taskName = regexp.MustCompile(`^([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*)-([0-9]+)_`)

// taskPattern finds the corpus's task folder (up to items/task/), id
// prefix, digits and highest number.
func taskPattern(items []string) (root, prefix string, width, top int) {
	for _, p := range items {
		i := strings.Index(p, "/items/task/")
		if i < 0 {
			continue
		}
		m := taskName.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if n > top {
			root, prefix, width, top = p[:i+len("/items/task/")], m[1], len(m[2]), n
		}
	}
	return root, prefix, width, top
}

func newTask(root, prefix string, width, n int, who string) [2]string {
	id := fmt.Sprintf("%s-%0*d", prefix, width, n)
	path := fmt.Sprintf("%s%04d/%s_bench-task-%d.md", root, n/100*100, id, n)
	text := fmt.Sprintf("---\nid: %s\ntype: Task\ntitle: Bench task %d from %s\nstate: Proposed\npriority: P3\n---\n\n# Context\n\nAdded by the team benchmark (%s).\n", id, n, who, who)
	return [2]string{path, text}
}

// setField replaces the first frontmatter line "field: ..." of text.
func setField(text, field, value string) string {
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(field) + `: .*$`)
	loc := re.FindStringIndex(text)
	if loc == nil {
		return text + fmt.Sprintf("\n- %s set to %s.\n", field, value)
	}
	return text[:loc[0]] + field + ": " + value + text[loc[1]:]
}

// writeCommit writes one fast-import commit on ref (mark when > 0, from
// when not "": the commit it follows; else the ref's last in the stream).
func writeCommit(b *bytes.Buffer, ref string, mark int, who string, date int64, msg, from string, changes [][2]string) {
	fmt.Fprintf(b, "commit %s\n", ref)
	if mark > 0 {
		fmt.Fprintf(b, "mark :%d\n", mark)
	}
	fmt.Fprintf(b, "author %s %d +0000\ncommitter %s %d +0000\ndata %d\n%s\n", who, date, who, date, len(msg), msg)
	if from != "" {
		fmt.Fprintf(b, "from %s\n", from)
	}
	for _, c := range changes {
		fmt.Fprintf(b, "M 100644 inline %s\ndata %d\n%s\n", c[0], len(c[1]), c[1])
	}
	b.WriteString("\n")
}

// saveCorpus and loadCorpus keep what setup made beside it (-reuse).
func saveCorpus(c *corpus, file string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

func loadCorpus(file, base string) (*corpus, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	c := &corpus{base: base}
	return c, json.Unmarshal(data, c)
}

// editable lists the documents the measured commits change in turn: an
// RFC repository's text/*.md, else (a KEP one) every Markdown file.
func editable(base string) ([]string, error) {
	for _, glob := range []string{"text/*.md", "*.md"} {
		out, err := git(base, "ls-files", "--", glob)
		if err != nil {
			return nil, err
		}
		if files := strings.Fields(out); len(files) > 0 {
			return files, nil
		}
	}
	return nil, errors.New("no Markdown file to edit")
}
