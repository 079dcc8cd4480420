package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/gitenv"
	"github.com/canon-md/canon/index/indextest/hang"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in the scripts")

func TestMain(m *testing.M) {
	commands := map[string]func(){
		"canon":          func() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) },
		"canon-holdlock": func() { os.Exit(holdLock(os.Args[1:])) },
		"canon-craft":    func() { os.Exit(craft(os.Args[1:])) },
	}
	// The test process leaves a calling git's repository alone; canon run
	// by a script's git as a hook keeps the variables git gave it.
	if commands[filepath.Base(os.Args[0])] == nil {
		gitenv.Clear()
	}
	testscript.Main(m, commands)
}

// craft is the scripts' hostile database writer: canon-craft DB SQL...
// runs each SQL statement on DB as another program would, without canon's
// connection settings (a workset database altered behind canon's back).
func craft(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: canon-craft DB SQL...")
		return 2
	}
	if err := indextest.Craft(args[0], args[1:]...); err != nil {
		fmt.Fprintln(os.Stderr, "canon-craft:", err)
		return 1
	}
	return 0
}

// holdLock is the scripts' writer that never finishes by itself:
// canon-holdlock WHO FILE opens the repository's index as canon does,
// takes the writer lock as WHO and holds it until FILE exists. A script
// that needs the lock held while other commands run (hostile_lock) cannot
// rely on a real command being slow enough: on a loaded machine a slow
// rebuild still finishes first. The lock line is written by the same code
// (index.Store.Lock), so what the waiters read is what canon writes.
func holdLock(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: canon-holdlock WHO FILE")
		return 2
	}
	who, release := args[0], args[1]
	s, err := gitsync.Open(".", who)
	if err != nil {
		fmt.Fprintln(os.Stderr, "canon-holdlock:", err)
		return 1
	}
	defer s.Close()
	unlock, err := s.Store.Lock(context.Background(), s.Who, s.LockWait)
	if err != nil {
		fmt.Fprintln(os.Stderr, "canon-holdlock:", err)
		return 1
	}
	defer unlock()
	// A watchdog, so that a script that never releases cannot hang the
	// suite; testscript kills it anyway when the script fails.
	for deadline := time.Now().Add(hang.Limit); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(release); err == nil {
			return 0
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "canon-holdlock: hung: never released in %v: %s\n", hang.Limit, release)
			return 1
		}
	}
}

// TestScripts runs the end-to-end scripts in testdata/script: real git
// repositories, real commits and checkouts, the canon binary, exact output.
func TestScripts(t *testing.T) {
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	hostile, err := filepath.Abs("../../testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	kano, err := filepath.Abs("../../testdata/kano-multi")
	if err != nil {
		t.Fatal(err)
	}
	keps, err := filepath.Abs("../../testdata/keps")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("HOSTILE", hostile)
			e.Setenv("KANO", kano)
			e.Setenv("KEPS", keps)
			// No script starts a watcher by itself (watch.auto) unless it
			// says so (autowatch_*.txtar); whatever watcher one leaves is
			// stopped when it ends, pass or fail.
			e.Setenv("CANON_NO_AUTOWATCH", "1")
			e.Defer(func() { stopWatchers(e.T(), e.WorkDir) })
			return setupGit(e, example)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitfor": waitFor,
			"bounded": bounded,
			"genfile": genFile,
			"sqlexec": sqlExec,
		},
	})
}

// waitFor is the scripts' poll: waitfor [-v] REGEXP COMMAND [ARGS...] runs
// COMMAND every 50 ms until its standard output matches REGEXP (with -v,
// until it does not). Something else's process (canon watch) changes the
// state asynchronously: a fixed sleep would race, a poll does not. Its one
// clock is a watchdog: a state never reached in hang.Limit fails the
// script as hung, however loaded the machine. The last run's stdout and
// stderr stay for the commands that follow.
func waitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! waitfor (use waitfor -v)")
	}
	invert := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-v":
			invert = true
			args = args[1:]
		default:
			ts.Fatalf("waitfor: unknown flag %s", args[0])
		}
	}
	if len(args) < 2 {
		ts.Fatalf("usage: waitfor [-v] REGEXP COMMAND [ARGS...]")
	}
	re, err := regexp.Compile("(?m)" + args[0])
	ts.Check(err)
	deadline := time.Now().Add(hang.Limit)
	for tries := 1; ; tries++ {
		_ = ts.Exec(args[1], args[2:]...) // a try that fails is tried again until the deadline
		if re.MatchString(ts.ReadFile("stdout")) != invert {
			return
		}
		if time.Now().After(deadline) {
			want := "matched"
			if invert {
				want = "stopped matching"
			}
			ts.Fatalf("waitfor: hung: the output of %s never %s %q in %v (%d tries)", strings.Join(args[1:], " "), want, args[0], hang.Limit, tries)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// setupGit gives every script a private git identity and configuration and
// fixed dates, so commit hashes are the same on every machine.
func setupGit(e *testscript.Env, example string) error {
	home := e.WorkDir + "/.home"
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	gitconfig := "[user]\n\tname = Canon Test\n\temail = test@canon.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[core]\n\tautocrlf = false\n"
	if err := os.WriteFile(home+"/.gitconfig", []byte(gitconfig), 0o644); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     home + "/.config",
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   home + "/.gitconfig",
		"GIT_AUTHOR_DATE":     "2025-03-01T12:00:00Z",
		"GIT_COMMITTER_DATE":  "2025-03-01T12:00:00Z",
		"EXAMPLE":             example,
		"TZ":                  "UTC",
	} {
		e.Setenv(k, v)
	}
	return nil
}

// bounded is the hostile scripts' exec: bounded [-mem MiB] [-cpu SECONDS]
// COMMAND [ARGS...] runs COMMAND under a memory limit (ulimit -v, default
// 2,560 MiB: a Go program with cgo needs about 1.6 GiB of address space to
// start) and a CPU-time limit (ulimit -t, default 60 s, for each process
// it starts). What a script proves with it is that a hostile input does
// not make canon run away, and CPU time and memory measure that whatever
// else runs on the machine; each bound is a generous multiple of what the
// command needs. Running out of either, or a Go crash (a panic, a fatal
// error), fails the script even under "!": a hostile input must end in an
// answer, never in the kernel's or the runtime's verdict.
//
// No wall time is asserted: a loaded machine stretches it several times
// over, and it says nothing of cost. The one clock is a watchdog,
// hang.Limit of wall time (then SIGTERM, and SIGKILL 10 s later), whose
// only purpose is to turn a command that hangs (waiting for something
// that never comes, using no CPU) into a failure that says so, not into
// the end of the whole package at go test's -timeout.
func bounded(ts *testscript.TestScript, neg bool, args []string) {
	mem, cpu := 2560, 60
	for len(args) > 1 && strings.HasPrefix(args[0], "-") {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		switch args[0] {
		case "-mem":
			mem = n
		case "-cpu":
			cpu = n
		default:
			ts.Fatalf("bounded: unknown flag %s (bounded [-mem MiB] [-cpu SECONDS] COMMAND [ARGS...])", args[0])
		}
		args = args[2:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: bounded [-mem MiB] [-cpu SECONDS] COMMAND [ARGS...]")
	}
	script := `ulimit -v "$1" || exit 98; ulimit -t "$2" || exit 98; hang=$3; shift 3
timeout -k 10 "$hang" "$@"; rc=$?
case $rc in
124) echo "bounded: hung: $1 still ran after ${hang}s of wall time (a watchdog for a hang, not a time limit)" >&2; exit 99 ;;
137) echo "bounded: $1 was killed: past its CPU seconds (ulimit -t) or out of memory" >&2; exit 99 ;;
esac
exit $rc`
	hangSecs := strconv.Itoa(int(hang.Limit / time.Second))
	err := ts.Exec("sh", append([]string{"-c", script, "sh", strconv.Itoa(mem * 1024), strconv.Itoa(cpu), hangSecs}, args...)...)
	stderr := ts.ReadFile("stderr")
	if strings.Contains(stderr, "bounded: hung: ") {
		ts.Fatalf("%s hung: still running after %v of wall time (the watchdog; the bounds are %d MiB and %d CPU seconds):\n%s", strings.Join(args, " "), hang.Limit, mem, cpu, stderr)
	}
	for _, crash := range []string{"bounded: ", "fatal error:", "panic:", "goroutine 1 [", "out of memory", "SIGSEGV", "SIGABRT"} {
		if strings.Contains(stderr, crash) {
			ts.Fatalf("%s did not stay within %d MiB and %d CPU seconds:\n%s", strings.Join(args, " "), mem, cpu, stderr)
		}
	}
	if neg && err == nil {
		ts.Fatalf("unexpected success")
	}
	if !neg && err != nil {
		ts.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
}

// genFile writes inputs too large to keep in testdata: genfile KIND N FILE
// writes a document with N broken links (links), N headings (headings),
// N bytes of frontmatter (frontmatter), N opening brackets, the slowest
// body to scan (brackets), or N files with one broken link
// each into the folder FILE (linkfiles).
func genFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: genfile links|headings|frontmatter|brackets|linkfiles N FILE")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	var b strings.Builder
	switch args[0] {
	case "links":
		b.WriteString("# Many links\n\n")
		for i := range n {
			fmt.Fprintf(&b, "- [gone %d](missing/gone-%d.md)\n", i, i)
		}
	case "headings":
		for i := range n {
			fmt.Fprintf(&b, "## Heading %d\n\ntext %d\n\n", i, i)
		}
	case "frontmatter":
		b.WriteString("---\nid: BIG-1\nblob:\n")
		for b.Len() < n {
			b.WriteString("  - lorem ipsum dolor sit amet, consectetur adipiscing elit\n")
		}
		b.WriteString("---\n# Big frontmatter\n")
	case "brackets":
		b.WriteString(strings.Repeat("[", n))
	case "linkfiles":
		dir := ts.MkAbs(args[2])
		ts.Check(os.MkdirAll(dir, 0o755))
		for i := range n {
			ts.Check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.md", i)), []byte(fmt.Sprintf("# File %d\n\n[gone](gone-%d.md)\n", i, i)), 0o644))
		}
		return
	default:
		ts.Fatalf("genfile: unknown kind %s", args[0])
	}
	file := ts.MkAbs(args[2])
	ts.Check(os.MkdirAll(filepath.Dir(file), 0o755))
	ts.Check(os.WriteFile(file, []byte(b.String()), 0o644))
}
