// Command benchagents is the parallel-agents replay of issue 25 (and, in
// its items mode, issue 47: items.go): N agents,
// each in its own worktree and branch, loop R rounds of what agents do to
// a backlog (take an id, create an item under a shared feature, append to
// the feature's worklog, move their previous item's status, add a blocks
// edge, commit), and every round their branches are merged into main in a
// random order, some through a rebase. It runs once with plain git (ids
// minted max+1 from the agent's own checkout, no hooks, no driver) and
// once with canon (hooks installed, the merge driver registered, ids from
// canon id next, which reads the other worktrees' branches through the
// overlays), and reports for each: duplicate ids on main, merges that
// needed a human, lines either side wrote that main lost, and canon
// verify. Run it through scripts/bench_agents.sh; the seed makes a run
// repeatable.
//
// A merge or rebase git stops on is counted as needing a human and is
// resolved as a hurried agent would: each conflicted file taken from the
// agent's side. It writes only under -work. No package imports it: it is
// off the ladder.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchagents: error:", err)
		os.Exit(1)
	}
}

var (
	work    = flag.String("work", "scripts/out/agents", "a folder to work in (emptied first)")
	canon   = flag.String("canon", "bin/canon", "the canon binary")
	agents  = flag.Int("agents", 8, "agents, each in its own worktree and branch")
	rounds  = flag.Int("rounds", 50, "rounds each agent makes")
	seed    = flag.Int64("seed", 1, "the seed of the merge orders and of which merges rebase")
	modes   = flag.String("modes", "git,canon", "the modes to run, comma separated: git, canon, items")
	rebaseP = flag.Float64("rebase", 0.3, "the share of merges made through a rebase")
	verbose = flag.Bool("v", false, "print what git said at each merge it stopped on")
)

func run() error {
	flag.Parse()
	bin, err := filepath.Abs(*canon)
	if err != nil {
		return err
	}
	binPath = bin
	if filepath.Base(bin) != "canon" {
		// .git/config names the driver "canon merge-driver": found in PATH.
		return fmt.Errorf("-canon %s: the merge driver runs canon from PATH, so the binary must be named canon", *canon)
	}
	if *work, err = filepath.Abs(*work); err != nil {
		return err
	}
	if err := os.RemoveAll(*work); err != nil {
		return err
	}
	var results []*result
	for _, m := range strings.Split(*modes, ",") {
		if m != "git" && m != "canon" && m != "items" {
			return fmt.Errorf("unknown mode %q: use git, canon or items", m)
		}
		r := &replay{mode: m, bin: bin, rng: rand.New(rand.NewSource(*seed)), dir: filepath.Join(*work, m), claims: map[string][]string{}}
		res, err := r.run()
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		results = append(results, res)
	}
	fmt.Printf("## Parallel-agents replay (%d agents x %d rounds, seed %d, %.0f%% of merges through a rebase; %s, %d cores)\n\n",
		*agents, *rounds, *seed, *rebaseP*100, time.Now().UTC().Format("2006-01-02"), numCPU())
	fmt.Println("| mode | duplicate ids on main | merges that needed a human | lines lost (of written) | canon verify | collisions reported by the hooks | claims refused | stories taken twice | time |")
	fmt.Println("|---|--:|--:|--:|---|--:|--:|--:|--:|")
	for _, r := range results {
		fmt.Printf("| %s | %d | %d of %d | %d of %d | %s | %s | %s | %s | %s |\n", r.label, r.dups, r.humans, r.merges, r.lost, r.written, r.verify, r.reported, r.refused, r.twice, r.took.Round(time.Second))
	}
	for _, r := range results {
		if r.refusal != "" {
			fmt.Printf("\nA refusal (%s): `%s`\n", r.label, r.refusal)
		}
	}
	return nil
}

var binPath string // the canon binary, absolute

const feature = "backlog/features/KB-FTR-0001_shared.md"

type result struct {
	label                string
	dups, humans, merges int
	lost, written        int
	verify, reported     string
	refused, twice       string
	refusal              string
	took                 time.Duration
}

type replay struct {
	mode, bin, dir string
	main           string // the main worktree
	rng            *rand.Rand
	agents         []*agent
	want           []line // every line an agent wrote, where main must have it
	humans, merges int
	reported       int
	clock          time.Time
	// The items mode's: who claimed each story, the claims refused, the
	// first refusal's words.
	claims  map[string][]string
	refused int
	refusal string
}

type agent struct {
	n        int
	dir      string
	prevPath string // the item it created last round
}

// line is one line an agent wrote in a file: main must have it at the end.
type line struct{ path, text string }

func (r *replay) run() (*result, error) {
	start := time.Now()
	r.main = filepath.Join(r.dir, "main")
	r.clock = time.Date(2030, 1, 1, 8, 0, 0, 0, time.UTC)
	if err := r.setup(); err != nil {
		return nil, err
	}
	for round := 1; round <= *rounds; round++ {
		if r.mode == "items" {
			if err := r.itemsRound(round); err != nil {
				return nil, fmt.Errorf("round %d, %w", round, err)
			}
		}
		for _, i := range r.rng.Perm(len(r.agents)) {
			if r.mode == "items" {
				break
			}
			if err := r.step(r.agents[i], round); err != nil {
				return nil, fmt.Errorf("round %d, agent %d: %w", round, i, err)
			}
		}
		for _, i := range r.rng.Perm(len(r.agents)) {
			rebase := r.rng.Float64() < *rebaseP
			if err := r.merge(r.agents[i], rebase); err != nil {
				return nil, fmt.Errorf("round %d, merging agent %d: %w", round, i, err)
			}
		}
	}
	res := &result{label: "plain git", humans: r.humans, merges: r.merges, written: len(r.want), reported: "-", refused: "-", twice: "-"}
	switch r.mode {
	case "canon":
		res.label = "canon (hooks, driver, id next)"
		res.reported = strconv.Itoa(r.reported)
	case "items":
		res.label = "canon new/claim/log/done --commit"
		res.reported, res.refused, res.twice = strconv.Itoa(r.reported), strconv.Itoa(r.refused), strconv.Itoa(r.takenTwice())
		res.refusal = r.refusal
	}
	var err error
	if res.dups, err = duplicateIDs(r.main); err != nil {
		return nil, err
	}
	res.lost = r.lost()
	if r.mode == "git" {
		// canon sees plain git's main for the first time here.
		if _, err := sh(r.main, r.bin, "index", "--full"); err != nil {
			return nil, err
		}
	}
	res.verify = "equal"
	if out, err := sh(r.main, r.bin, "verify"); err != nil {
		res.verify = "differs: " + firstLine(out)
	}
	res.took = time.Since(start)
	return res, nil
}

func (r *replay) setup() error {
	if err := os.MkdirAll(r.main, 0o755); err != nil {
		return err
	}
	files := map[string]string{
		".canon/config.yaml":                  "roots: [backlog]\n",
		".gitignore":                          ".cache/\n",
		feature:                               "---\nid: KB-FTR-0001\ntype: feature\nstate: InProgress\ntitle: The shared feature\n---\n# The shared feature\n\nEvery agent's items are under it.\n\n## Worklog\n\n2030-01-01 07:00 [agent=lead] opened.\n",
		"backlog/stories/KB-USR-0001_seed.md": "---\nid: KB-USR-0001\ntype: story\nstate: Done\ntitle: The first story\nparent: KB-FTR-0001\n---\n# The first story\n",
	}
	if r.mode == "items" {
		for p, text := range seedStories() {
			files[p] = text
		}
	}
	for p, text := range files {
		abs := filepath.Join(r.main, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			return err
		}
	}
	cmds := [][]string{
		{"git", "init", "-q", "-b", "main"},
		{"git", "config", "user.email", "agents@canon.invalid"},
		{"git", "config", "user.name", "agents"},
		{"git", "config", "commit.gpgsign", "false"},
		{"git", "config", "rerere.enabled", "false"},
		{"git", "add", "-A"},
		{"git", "commit", "-q", "-m", "the shared feature"},
	}
	if r.mode != "git" {
		cmds = append(cmds, []string{r.bin, "hooks", "install"}, []string{"git", "add", ".gitattributes"},
			[]string{"git", "commit", "-q", "-m", "canon's merge driver"})
	}
	for _, c := range cmds {
		if _, err := sh(r.main, c[0], c[1:]...); err != nil {
			return err
		}
	}
	for i := 0; i < *agents; i++ {
		a := &agent{n: i, dir: filepath.Join(r.dir, fmt.Sprintf("agent-%d", i))}
		if _, err := sh(r.main, "git", "worktree", "add", "-q", "-b", a.branch(), a.dir, "main"); err != nil {
			return err
		}
		r.agents = append(r.agents, a)
	}
	return nil
}

func (a *agent) branch() string { return fmt.Sprintf("agent-%d", a.n) }

// step is one agent's round: it starts from main, takes an id, creates an
// item under the shared feature with a blocks edge to it, logs it in the
// feature's worklog, marks its previous item done, and commits.
func (r *replay) step(a *agent, round int) error {
	if _, err := sh(a.dir, "git", "merge", "-q", "--ff-only", "main"); err != nil {
		return err
	}
	id, err := r.nextID(a)
	if err != nil {
		return err
	}
	r.clock = r.clock.Add(time.Minute)
	title := fmt.Sprintf("Agent %d, round %d", a.n, round)
	item := fmt.Sprintf("backlog/stories/%s_agent-%d-round-%d.md", id, a.n, round)
	text := fmt.Sprintf("---\nid: %s\ntype: story\nstate: Ready\ntitle: %s\nparent: KB-FTR-0001\nblocks: [KB-FTR-0001]\n---\n# %s\n", id, title, title)
	if err := os.WriteFile(filepath.Join(a.dir, filepath.FromSlash(item)), []byte(text), 0o644); err != nil {
		return err
	}
	logLine := fmt.Sprintf("%s [agent=agent-%d] round %d: took %s (%s).", r.clock.Format("2006-01-02 15:04"), a.n, round, id, item)
	if err := appendFile(filepath.Join(a.dir, filepath.FromSlash(feature)), logLine+"\n"); err != nil {
		return err
	}
	r.want = append(r.want, line{item, "id: " + id}, line{item, "blocks: [KB-FTR-0001]"}, line{feature, logLine})
	if a.prevPath != "" {
		if err := editFile(filepath.Join(a.dir, filepath.FromSlash(a.prevPath)), "state: Ready\n", "state: Done\n"); err != nil {
			return err
		}
		r.want = append(r.want, line{a.prevPath, "state: Done"})
	}
	a.prevPath = item
	if _, err := sh(a.dir, "git", "add", "-A"); err != nil {
		return err
	}
	_, err = sh(a.dir, "git", "commit", "-q", "-m", fmt.Sprintf("agent %d: %s", a.n, id))
	return err
}

var storyID = regexp.MustCompile(`(?m)^id: KB-USR-(\d+)$`)

// nextID is the id the agent takes: plain git's max+1 over its own
// checkout, or canon id next.
func (r *replay) nextID(a *agent) (string, error) {
	if r.mode == "canon" {
		// stdout alone: canon says on stderr what it did first (built
		// the index).
		cmd := exec.Command(r.bin, "id", "next", "story")
		cmd.Dir, cmd.Env = a.dir, environ()
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("canon id next story: %w", err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	paths, err := filepath.Glob(filepath.Join(a.dir, "backlog", "stories", "*.md"))
	if err != nil {
		return "", err
	}
	top := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		for _, m := range storyID.FindAllSubmatch(b, -1) {
			if n, _ := strconv.Atoi(string(m[1])); n > top {
				top = n
			}
		}
	}
	return fmt.Sprintf("KB-USR-%04d", top+1), nil
}

// merge brings an agent's branch into main: a merge in main's worktree,
// or a rebase in the agent's and a fast-forward. What git stops on needs
// a human: counted, then resolved with the agent's side.
func (r *replay) merge(a *agent, rebase bool) error {
	r.merges++
	if rebase {
		out, err := sh(a.dir, "git", "rebase", "-q", "main")
		r.count(out)
		if err != nil {
			r.humans++
			for err != nil {
				// In a rebase, "theirs" is the agent's commit being replayed.
				if e := r.takeTheirs(a.dir); e != nil {
					return e
				}
				out, err = shEnv(a.dir, []string{"GIT_EDITOR=true"}, "git", "rebase", "--continue")
				r.count(out)
				if err != nil && !strings.Contains(out, "CONFLICT") {
					return fmt.Errorf("git rebase --continue: %w: %s", err, out)
				}
			}
		}
		_, err = sh(r.main, "git", "merge", "-q", "--ff-only", a.branch())
		return err
	}
	out, err := sh(r.main, "git", "merge", "-q", "--no-edit", a.branch())
	r.count(out)
	if err == nil {
		return nil
	}
	if !strings.Contains(out, "CONFLICT") {
		return fmt.Errorf("git merge: %w: %s", err, out)
	}
	r.humans++
	if *verbose {
		fmt.Fprintf(os.Stderr, "merge of %s stopped:\n%s\n", a.branch(), out)
	}
	if err := r.takeTheirs(r.main); err != nil {
		return err
	}
	out, err = sh(r.main, "git", "commit", "-q", "--no-edit")
	r.count(out)
	return err
}

// count notes the collisions canon's hooks reported in a command's output.
func (r *replay) count(out string) {
	r.reported += strings.Count(out, " now names ")
}

// takeTheirs resolves every conflicted file with the side being merged in.
func (r *replay) takeTheirs(dir string) error {
	out, err := sh(dir, "git", "diff", "--name-only", "--diff-filter=U")
	if err != nil {
		return err
	}
	for _, f := range strings.Fields(out) {
		if _, err := sh(dir, "git", "checkout", "--theirs", "--", f); err != nil {
			return err
		}
		if _, err := sh(dir, "git", "add", "--", f); err != nil {
			return err
		}
	}
	return nil
}

// lost counts the lines agents wrote that main does not have.
func (r *replay) lost() int {
	files := map[string][]byte{}
	n := 0
	for _, w := range r.want {
		b, ok := files[w.path]
		if !ok {
			b, _ = os.ReadFile(filepath.Join(r.main, filepath.FromSlash(w.path)))
			files[w.path] = b
		}
		if !bytes.Contains(b, []byte("\n"+w.text+"\n")) {
			n++
		}
	}
	return n
}

// duplicateIDs counts the documents on main whose id an earlier one has.
func duplicateIDs(root string) (int, error) {
	seen := map[string]int{}
	err := filepath.WalkDir(filepath.Join(root, "backlog"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := regexp.MustCompile(`(?m)^id: (\S+)$`).FindSubmatch(b); m != nil {
			seen[string(m[1])]++
		}
		return nil
	})
	dups := 0
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		dups += seen[k] - 1
	}
	return dups, err
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func editFile(path, old, repl string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(old)) {
		return fmt.Errorf("%s has no %q", path, old)
	}
	return os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(repl), 1), 0o644)
}

func sh(dir, name string, args ...string) (string, error) {
	return shEnv(dir, nil, name, args...)
}

// shEnv runs a command in dir and returns its output, stdout and stderr
// together (the hooks speak on stderr).
func shEnv(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil && name != "git" {
		return string(out), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, out)
	}
	if err != nil && !strings.Contains(string(out), "CONFLICT") {
		return string(out), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, out)
	}
	return string(out), err
}

// environ is this process's environment without CANON_SKIP (which turns
// canon's hooks off) and with the canon binary's folder first in PATH, as
// the hooks find canon there.
func environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CANON_SKIP=") || strings.HasPrefix(kv, "PATH=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+filepath.Dir(binPath)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func numCPU() int {
	out, err := exec.Command("nproc").Output()
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return n
}
