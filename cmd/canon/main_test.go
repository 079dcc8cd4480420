package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in the scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"canon": func() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: real git
// repositories, real commits and checkouts, the canon binary, exact output.
func TestScripts(t *testing.T) {
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			return setupGit(e, example)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitfor": waitFor,
		},
	})
}

// waitFor is the scripts' poll: waitfor [-v] [-t DURATION] REGEXP COMMAND
// [ARGS...] runs COMMAND every 50 ms until its standard output matches
// REGEXP (with -v, until it does not), for at most DURATION (default 30s).
// Something else's process (canon watch) changes the state asynchronously:
// a fixed sleep would race, a poll does not. The last run's stdout and
// stderr stay for the commands that follow.
func waitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! waitfor (use waitfor -v)")
	}
	invert, timeout := false, 30*time.Second
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-v":
			invert = true
			args = args[1:]
		case "-t":
			if len(args) < 2 {
				ts.Fatalf("usage: waitfor [-v] [-t DURATION] REGEXP COMMAND [ARGS...]")
			}
			d, err := time.ParseDuration(args[1])
			ts.Check(err)
			timeout = d
			args = args[2:]
		default:
			ts.Fatalf("waitfor: unknown flag %s", args[0])
		}
	}
	if len(args) < 2 {
		ts.Fatalf("usage: waitfor [-v] [-t DURATION] REGEXP COMMAND [ARGS...]")
	}
	re, err := regexp.Compile("(?m)" + args[0])
	ts.Check(err)
	deadline := time.Now().Add(timeout)
	for tries := 1; ; tries++ {
		ts.Exec(args[1], args[2:]...)
		if re.MatchString(ts.ReadFile("stdout")) != invert {
			return
		}
		if time.Now().After(deadline) {
			want := "matched"
			if invert {
				want = "stopped matching"
			}
			ts.Fatalf("waitfor: the output of %s never %s %q in %s (%d tries)", strings.Join(args[1:], " "), want, args[0], timeout, tries)
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
