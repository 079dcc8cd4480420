// Command benchitems measures canon's write path (issue 47, item 6): canon
// new, set, claim, log and done side by side with Backlog.md's task
// create and task edit on Backlog.md's own backlog, the two taking turns
// (run i starts with canon when i is even, with Backlog.md when odd), and
// the same canon writes on a generated backlog of 1,000 and of 100,000
// documents. It prints Markdown tables of medians: wall time, and CPU
// time (user+sys of the command and everything it started, from
// getrusage), which other work on the machine does not inflate. Run it
// through scripts/bench_items.sh. It writes only under -work. No package
// imports it: it is off the ladder.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var (
	work    = flag.String("work", "scripts/out/items", "a folder to work in (emptied first)")
	canon   = flag.String("canon", "bin/canon", "the canon binary")
	backlog = flag.String("backlog", "scripts/out/backlog/node_modules/.bin/backlog", "Backlog.md's CLI (npm install backlog.md)")
	repo    = flag.String("repo", "", "Backlog.md's repository (a clone, a bare mirror or a URL); empty: no side by side")
	rev     = flag.String("rev", "", "the commit of -repo to check out (empty: its HEAD)")
	corpora = flag.String("corpora", "", "comma-separated generated backlogs (scripts/gencorpus) to write into, each copied first")
	runs    = flag.Int("runs", 7, "runs of each write")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchitems: error:", err)
		os.Exit(1)
	}
}

// sample is one command's cost.
type sample struct{ wall, cpu time.Duration }

// series are the samples of one write.
type series struct {
	name    string
	samples []sample
}

func (s *series) median() sample {
	w := make([]time.Duration, len(s.samples))
	c := make([]time.Duration, len(s.samples))
	for i, x := range s.samples {
		w[i], c[i] = x.wall, x.cpu
	}
	return sample{med(w), med(c)}
}

func med(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}

func run() error {
	var err error
	if *canon, err = filepath.Abs(*canon); err != nil {
		return err
	}
	if *work, err = filepath.Abs(*work); err != nil {
		return err
	}
	if err := os.RemoveAll(*work); err != nil {
		return err
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	fmt.Printf("## canon's writes (%d runs each, medians; %s, %d cores)\n\n", *runs, time.Now().UTC().Format("2006-01-02"), cores())
	if *repo != "" {
		if *backlog, err = filepath.Abs(*backlog); err != nil {
			return err
		}
		if err := sideBySide(); err != nil {
			return fmt.Errorf("side by side: %w", err)
		}
	}
	if *corpora != "" {
		if err := scale(strings.Split(*corpora, ",")); err != nil {
			return fmt.Errorf("scale: %w", err)
		}
	}
	return nil
}

// measure runs a command in dir and returns its output and cost: the
// wall time, and the CPU time of it and every process it waited for.
func measure(dir, name string, args ...string) (string, sample, error) {
	var before, after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before); err != nil {
		return "", sample{}, err
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CANON_AGENT=")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if e := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after); e != nil {
		return "", sample{}, e
	}
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
	if err != nil {
		return string(out), sample{}, fmt.Errorf("%s %s: %w: %s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out), sample{wall, cpu}, nil
}

func git(dir string, args ...string) error {
	_, _, err := measure(dir, "git", args...)
	return err
}

// sideBySide times canon's writes and Backlog.md's on a clone of its
// repository, taking turns.
func sideBySide() error {
	dir := filepath.Join(*work, "backlog.md")
	if err := git(*work, "clone", "-q", *repo, dir); err != nil {
		return err
	}
	if *rev != "" {
		if err := git(dir, "checkout", "-q", *rev); err != nil {
			return err
		}
	}
	for _, kv := range [][2]string{{"user.name", "bench"}, {"user.email", "bench@canon.invalid"}, {"commit.gpgsign", "false"}} {
		if err := git(dir, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	if _, _, err := measure(dir, *canon, "init"); err != nil {
		return err
	}
	docs, _, _ := measure(dir, "git", "ls-files", "backlog")
	body := filepath.Join(*work, "body.md")
	if err := os.WriteFile(body, []byte("Measured by scripts/benchitems.\n\nA second paragraph.\n"), 0o644); err != nil {
		return err
	}
	names := []string{"new", "set", "claim", "log", "done"}
	theirs := []string{"task create", "task edit --priority", "task edit -s -a", "task edit --append-notes", "task edit -s Done"}
	ours := make([]*series, len(names))
	bl := make([]*series, len(names))
	for i := range names {
		ours[i], bl[i] = &series{name: names[i]}, &series{name: theirs[i]}
	}
	idRE := regexp.MustCompile(`(?m)^(?:created task |Task )(\S+)[ ]`)
	for r := 0; r < *runs; r++ {
		var cid, bid string
		for step := range names {
			canonFirst := r%2 == 0
			for turn := 0; turn < 2; turn++ {
				if (turn == 0) == canonFirst {
					args := canonArgs(step, cid, r, body)
					out, s, err := measure(dir, *canon, args...)
					if err != nil {
						return err
					}
					if step == 0 {
						m := idRE.FindStringSubmatch(out)
						if m == nil {
							return fmt.Errorf("canon new said no id: %s", out)
						}
						cid = m[1]
					}
					ours[step].samples = append(ours[step].samples, s)
				} else {
					args := backlogArgs(step, bid, r)
					out, s, err := measure(dir, *backlog, args...)
					if err != nil {
						return err
					}
					if step == 0 {
						m := idRE.FindStringSubmatch(out)
						if m == nil {
							return fmt.Errorf("backlog task create said no id: %s", out)
						}
						bid = m[1]
					}
					bl[step].samples = append(bl[step].samples, s)
				}
			}
		}
	}
	fmt.Printf("### Side by side with Backlog.md %s on its own backlog (%d files under backlog/)\n\n", version(), strings.Count(docs, "\n"))
	fmt.Println("| write | canon wall | canon CPU | Backlog.md | its wall | its CPU | canon / Backlog.md (wall, CPU) |")
	fmt.Println("|---|--:|--:|---|--:|--:|--:|")
	for i := range names {
		o, t := ours[i].median(), bl[i].median()
		fmt.Printf("| `canon %s` | %s | %s | `backlog %s` | %s | %s | %.2f, %.2f |\n", names[i], ms(o.wall), ms(o.cpu), theirs[i], ms(t.wall), ms(t.cpu),
			float64(o.wall)/float64(t.wall), float64(o.cpu)/float64(t.cpu))
	}
	fmt.Println()
	return nil
}

func canonArgs(step int, id string, r int, body string) []string {
	switch step {
	case 0:
		return []string{"new", "task", fmt.Sprintf("Bench canon %d", r), "--set", "priority=medium", "--set", "labels=bench", "--body", body}
	case 1:
		return []string{"set", id, "priority=low"}
	case 2:
		return []string{"claim", id, "--as", "bench"}
	case 3:
		return []string{"log", id, "measured", "--as", "bench"}
	}
	return []string{"done", id}
}

func backlogArgs(step int, id string, r int) []string {
	switch step {
	case 0:
		return []string{"task", "create", fmt.Sprintf("Bench backlog %d", r), "--priority", "medium", "-l", "bench", "-d", "Measured by scripts/benchitems.\n\nA second paragraph.", "--plain"}
	case 1:
		return []string{"task", "edit", id, "--priority", "low"}
	case 2:
		return []string{"task", "edit", id, "-s", "In Progress", "-a", "bench"}
	case 3:
		return []string{"task", "edit", id, "--append-notes", "measured"}
	}
	return []string{"task", "edit", id, "-s", "Done"}
}

// scale times the same canon writes on generated backlogs of several
// sizes, each copied first (cp -a) and indexed (not timed).
func scale(dirs []string) error {
	type row struct {
		docs int
		med  []sample
	}
	names := []string{"new", "set", "claim", "log", "done", "new --commit"}
	var rows []row
	for _, src := range dirs {
		src = strings.TrimSpace(src)
		if _, err := os.Stat(src); err != nil {
			fmt.Fprintf(os.Stderr, "benchitems: %s: %v; skipped (scripts/bench.sh generates it)\n", src, err)
			continue
		}
		dir := filepath.Join(*work, filepath.Base(src))
		if err := exec.Command("cp", "-a", src, dir).Run(); err != nil {
			return fmt.Errorf("cp -a %s: %w", src, err)
		}
		for _, kv := range [][2]string{{"user.name", "bench"}, {"user.email", "bench@canon.invalid"}, {"commit.gpgsign", "false"}} {
			if err := git(dir, "config", kv[0], kv[1]); err != nil {
				return err
			}
		}
		if _, _, err := measure(dir, *canon, "init"); err != nil {
			return err
		}
		files, _, _ := measure(dir, "git", "ls-files")
		ss := make([]*series, len(names))
		for i := range ss {
			ss[i] = &series{name: names[i]}
		}
		idRE := regexp.MustCompile(`(?m)^created task (\S+) `)
		for r := 0; r < *runs; r++ {
			out, s, err := measure(dir, *canon, "new", "task", fmt.Sprintf("Bench write %d", r))
			if err != nil {
				return err
			}
			ss[0].samples = append(ss[0].samples, s)
			m := idRE.FindStringSubmatch(out)
			if m == nil {
				return fmt.Errorf("canon new said no id: %s", out)
			}
			id := m[1]
			for i, args := range [][]string{{"set", id, "priority=P2"}, {"claim", id, "--as", "bench"}, {"log", id, "measured", "--as", "bench"}, {"done", id}} {
				if _, s, err = measure(dir, *canon, args...); err != nil {
					return err
				}
				ss[i+1].samples = append(ss[i+1].samples, s)
			}
			if _, s, err = measure(dir, *canon, "new", "task", fmt.Sprintf("Bench commit %d", r), "--commit"); err != nil {
				return err
			}
			ss[5].samples = append(ss[5].samples, s)
		}
		rw := row{docs: strings.Count(files, "\n")}
		for _, s := range ss {
			rw.med = append(rw.med, s.median())
		}
		rows = append(rows, rw)
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		return nil
	}
	fmt.Println("### One write at scale (generated Kano backlogs)")
	fmt.Println()
	head := "| write |"
	sep := "|---|"
	for _, r := range rows {
		head += fmt.Sprintf(" %d files: wall | CPU |", r.docs)
		sep += "--:|--:|"
	}
	if len(rows) > 1 {
		head += " largest / smallest (wall, CPU) |"
		sep += "--:|"
	}
	fmt.Println(head)
	fmt.Println(sep)
	for i, n := range names {
		line := "| `canon " + n + "` |"
		for _, r := range rows {
			line += fmt.Sprintf(" %s | %s |", ms(r.med[i].wall), ms(r.med[i].cpu))
		}
		if len(rows) > 1 {
			a, b := rows[len(rows)-1].med[i], rows[0].med[i]
			line += fmt.Sprintf(" %.1f, %.1f |", float64(a.wall)/float64(b.wall), float64(a.cpu)/float64(b.cpu))
		}
		fmt.Println(line)
	}
	fmt.Println()
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func version() string {
	out, err := exec.Command(*backlog, "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

func cores() int {
	out, err := exec.Command("nproc").Output()
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0
	}
	return n
}
